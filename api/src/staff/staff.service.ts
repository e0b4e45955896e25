import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { assertBodyIdMatches } from '../common/parse-object-id.pipe';
import type { UserListQueryDto } from '../users/dto/user.dto';
import type { UserView } from '../users/user.types';
import { UsersService, type Page } from '../users/users.service';
import type { CreateStaffDto, UpdateStaffDto } from './dto/staff.dto';

/** Staff members are accounts with the staff role; only admin manages them. */
@Injectable()
export class StaffService {
  constructor(
    private readonly users: UsersService,
    private readonly audit: AuditService,
  ) {}

  list(query: UserListQueryDto, active: boolean): Promise<Page<UserView>> {
    return this.users.list(['staff'], query, active);
  }

  get(id: string): Promise<UserView> {
    return this.users.get(id, 'staff');
  }

  async create(actor: Principal, dto: CreateStaffDto): Promise<UserView> {
    const staff = await this.users.createAccount({ ...dto, role: 'staff' });
    await this.audit.record(
      actor,
      'staff.create',
      `${actor.fullName} created staff member ${staff.fullName} (${staff.email})`,
      {
        type: 'staff',
        id: staff._id,
        label: staff.fullName,
      },
    );
    return staff;
  }

  update(actor: Principal, id: string, body: UpdateStaffDto): Promise<UserView> {
    assertBodyIdMatches(body._id, id);
    return this.users.updateStaff(actor, id, { ...body.updatedStaff });
  }

  setActive(actor: Principal, id: string, active: boolean) {
    return this.users.setActive(actor, id, 'staff', active);
  }

  remove(actor: Principal, id: string): Promise<UserView> {
    return this.users.remove(actor, id, 'staff');
  }
}
