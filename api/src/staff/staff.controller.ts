import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer, Answered, said } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { UserListQueryDto } from '../users/dto/user.dto';
import {
  CreateStaffDto,
  StaffData,
  StaffListData,
  StaffListResponseDto,
  StaffResponseDto,
  UpdateStaffDto,
} from './dto/staff.dto';
import { StaffService } from './staff.service';

@ApiTags('staff')
@Controller('staff')
@Auth('admin')
@ApiNotFoundResponse({ type: ErrorResponseDto })
export class StaffController {
  constructor(private readonly staff: StaffService) {}

  @Get()
  @ApiOperation({ summary: 'Active staff, newest first, 10 a page; search by name or e-mail' })
  @Answer('Staff retrieved', StaffListResponseDto)
  list(@Query() query: UserListQueryDto): Promise<StaffListData> {
    return this.page(query, true);
  }

  @Get('inactive')
  @ApiOperation({ summary: 'Deactivated staff' })
  @Answer('Staff retrieved', StaffListResponseDto)
  listInactive(@Query() query: UserListQueryDto): Promise<StaffListData> {
    return this.page(query, false);
  }

  @Post()
  @ApiOperation({ summary: 'Add a staff member' })
  @Answer('Staff member created successfully', StaffResponseDto, { status: 201 })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The e-mail is taken' })
  async create(@CurrentUser() actor: Principal, @Body() dto: CreateStaffDto): Promise<StaffData> {
    return { staff: await this.staff.create(actor, dto) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One staff member' })
  @Answer('Staff member retrieved', StaffResponseDto)
  async get(@Param('id', ParseObjectIdPipe) id: string): Promise<StaffData> {
    return { staff: await this.staff.get(id) };
  }

  @Patch('update/:id')
  @ApiOperation({ summary: "Change a staff member's name, e-mail or phone" })
  @Answer('Staff member updated successfully', StaffResponseDto)
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() body: UpdateStaffDto,
  ): Promise<StaffData> {
    return { staff: await this.staff.update(actor, id, body) };
  }

  @Patch('softDelete/:id')
  @ApiOperation({ summary: 'Deactivate a staff member: they can no longer sign in' })
  @Answer('Staff member deactivated successfully', StaffResponseDto)
  async deactivate(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<Answered<StaffData>> {
    const { user, changed } = await this.staff.setActive(actor, id, false);
    return changed
      ? { staff: user }
      : said('Staff member was already deactivated', { staff: user });
  }

  @Patch('restore/:id')
  @ApiOperation({ summary: 'Restore a deactivated staff member' })
  @Answer('Staff member restored successfully', StaffResponseDto)
  async restore(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<Answered<StaffData>> {
    const { user, changed } = await this.staff.setActive(actor, id, true);
    return changed ? { staff: user } : said('Staff member was already active', { staff: user });
  }

  @Delete('delete/:id')
  @ApiOperation({ summary: 'Delete a staff member for good' })
  @Answer('Staff member deleted successfully', StaffResponseDto)
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<StaffData> {
    return { staff: await this.staff.remove(actor, id) };
  }

  private async page(query: UserListQueryDto, active: boolean): Promise<StaffListData> {
    const page = await this.staff.list(query, active);
    return {
      staff: page.items,
      totalStaff: page.total,
      totalPages: page.totalPages,
      page: page.page,
    };
  }
}
