import { Body, Controller, Delete, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import {
  UpdateUserDto,
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
  @ApiOkResponse({ type: UserListResponseDto })
  async list(@Query() query: UserListQueryDto): Promise<UserListResponseDto> {
    const page = await this.users.list(['customer'], query);
    return {
      success: true,
      message: 'Users retrieved',
      users: page.items,
      totalUsers: page.total,
      totalPages: page.totalPages,
      page: page.page,
    };
  }

  @Get('user/:id')
  @Auth()
  @ApiOperation({ summary: 'One account: admin reads anyone, others only themselves' })
  @ApiOkResponse({ type: UserResponseDto })
  async get(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<UserResponseDto> {
    return { success: true, message: 'User retrieved', user: await this.users.getFor(actor, id) };
  }

  @Patch('user/update/:id')
  @Auth()
  @ApiOperation({
    summary: 'Update a customer (admin) or your own record (name, phone, county, street address)',
  })
  @ApiOkResponse({ type: UserResponseDto })
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() body: UpdateUserDto,
  ): Promise<UserResponseDto> {
    return {
      success: true,
      message: 'User updated successfully',
      user: await this.users.updateUser(actor, id, body),
    };
  }

  @Patch('user/softDelete/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'Deactivate a customer: they can no longer sign in' })
  @ApiOkResponse({ type: UserResponseDto })
  async deactivate(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<UserResponseDto> {
    const { user, changed } = await this.users.setActive(actor, id, 'customer', false);
    return {
      success: true,
      message: changed ? 'User deactivated successfully' : 'User was already deactivated',
      user,
    };
  }

  @Patch('user/restore/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'Restore a deactivated customer' })
  @ApiOkResponse({ type: UserResponseDto })
  async restore(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<UserResponseDto> {
    const { user, changed } = await this.users.setActive(actor, id, 'customer', true);
    return {
      success: true,
      message: changed ? 'User restored successfully' : 'User was already active',
      user,
    };
  }

  @Delete('user/delete/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'Delete a customer for good (their past orders stay)' })
  @ApiOkResponse({ type: UserResponseDto })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<UserResponseDto> {
    return {
      success: true,
      message: 'User deleted successfully',
      user: await this.users.remove(actor, id, 'customer'),
    };
  }
}
