import { Body, Controller, Delete, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer, Answered, said } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import {
  UpdateUserDto,
  UserData,
  UserListData,
  UserListQueryDto,
  UserListResponseDto,
  UserResponseDto,
} from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller()
@ApiNotFoundResponse({ type: ErrorResponseDto })
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('users')
  @Auth('admin')
  @ApiOperation({ summary: 'Customers, newest first, 10 a page; search by name or e-mail' })
  @Answer('Users retrieved', UserListResponseDto)
  async list(@Query() query: UserListQueryDto): Promise<UserListData> {
    const page = await this.users.list(['customer'], query);
    return {
      users: page.items,
      totalUsers: page.total,
      totalPages: page.totalPages,
      page: page.page,
    };
  }

  @Get('user/:id')
  @Auth()
  @ApiOperation({ summary: 'One account: admin reads anyone, others only themselves' })
  @Answer('User retrieved', UserResponseDto)
  async get(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<UserData> {
    return { user: await this.users.getFor(actor, id) };
  }

  @Patch('user/update/:id')
  @Auth()
  @ApiOperation({
    summary: 'Update a customer (admin) or your own record (name, phone, county, street address)',
  })
  @Answer('User updated successfully', UserResponseDto)
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() body: UpdateUserDto,
  ): Promise<UserData> {
    return { user: await this.users.updateUser(actor, id, body) };
  }

  @Patch('user/softDelete/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'Deactivate a customer: they can no longer sign in' })
  @Answer('User deactivated successfully', UserResponseDto)
  async deactivate(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<Answered<UserData>> {
    const { user, changed } = await this.users.setActive(actor, id, 'customer', false);
    return changed ? { user } : said('User was already deactivated', { user });
  }

  @Patch('user/restore/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'Restore a deactivated customer' })
  @Answer('User restored successfully', UserResponseDto)
  async restore(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<Answered<UserData>> {
    const { user, changed } = await this.users.setActive(actor, id, 'customer', true);
    return changed ? { user } : said('User was already active', { user });
  }

  @Delete('user/delete/:id')
  @Auth('admin')
  @ApiOperation({
    summary:
      'Delete a customer for good: the same erasure as their own (their past orders stay, without them); refused while an order is open',
  })
  @Answer('User deleted successfully', UserResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Orders still open (ORDERS_OPEN)' })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<UserData> {
    return { user: await this.users.remove(actor, id, 'customer') };
  }
}
