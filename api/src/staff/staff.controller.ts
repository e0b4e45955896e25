import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { UserListQueryDto } from '../users/dto/user.dto';
import {
  CreateStaffDto,
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
  @ApiOkResponse({ type: StaffListResponseDto })
  list(@Query() query: UserListQueryDto): Promise<StaffListResponseDto> {
    return this.page(query, true);
  }

  @Get('inactive')
  @ApiOperation({ summary: 'Deactivated staff' })
  @ApiOkResponse({ type: StaffListResponseDto })
  listInactive(@Query() query: UserListQueryDto): Promise<StaffListResponseDto> {
    return this.page(query, false);
  }

  @Post()
  @ApiOperation({ summary: 'Add a staff member' })
  @ApiCreatedResponse({ type: StaffResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The e-mail is taken' })
  async create(
    @CurrentUser() actor: Principal,
    @Body() dto: CreateStaffDto,
  ): Promise<StaffResponseDto> {
    return {
      success: true,
      message: 'Staff member created successfully',
      staff: await this.staff.create(actor, dto),
    };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One staff member' })
  @ApiOkResponse({ type: StaffResponseDto })
  async get(@Param('id', ParseObjectIdPipe) id: string): Promise<StaffResponseDto> {
    return { success: true, message: 'Staff member retrieved', staff: await this.staff.get(id) };
  }

  @Patch('update/:id')
  @ApiOperation({ summary: "Change a staff member's name, e-mail or phone" })
  @ApiOkResponse({ type: StaffResponseDto })
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() body: UpdateStaffDto,
  ): Promise<StaffResponseDto> {
    return {
      success: true,
      message: 'Staff member updated successfully',
      staff: await this.staff.update(actor, id, body),
    };
  }

  @Patch('softDelete/:id')
  @ApiOperation({ summary: 'Deactivate a staff member: they can no longer sign in' })
  @ApiOkResponse({ type: StaffResponseDto })
  async deactivate(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<StaffResponseDto> {
    const { user, changed } = await this.staff.setActive(actor, id, false);
    return {
      success: true,
      message: changed
        ? 'Staff member deactivated successfully'
        : 'Staff member was already deactivated',
      staff: user,
    };
  }

  @Patch('restore/:id')
  @ApiOperation({ summary: 'Restore a deactivated staff member' })
  @ApiOkResponse({ type: StaffResponseDto })
  async restore(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<StaffResponseDto> {
    const { user, changed } = await this.staff.setActive(actor, id, true);
    return {
      success: true,
      message: changed ? 'Staff member restored successfully' : 'Staff member was already active',
      staff: user,
    };
  }

  @Delete('delete/:id')
  @ApiOperation({ summary: 'Delete a staff member for good' })
  @ApiOkResponse({ type: StaffResponseDto })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<StaffResponseDto> {
    return {
      success: true,
      message: 'Staff member deleted successfully',
      staff: await this.staff.remove(actor, id),
    };
  }

  private async page(query: UserListQueryDto, active: boolean): Promise<StaffListResponseDto> {
    const page = await this.staff.list(query, active);
    return {
      success: true,
      message: 'Staff retrieved',
      staff: page.items,
      totalStaff: page.total,
      totalPages: page.totalPages,
      page: page.page,
    };
  }
}
