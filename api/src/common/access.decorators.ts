import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ROLES, type Role } from '@spc/shared-contracts';
import { ErrorResponseDto } from './error-response.dto';

export const ACCESS_RULE = 'spc:access-rule';
export const OPTIONAL_AUTH_EXTENSION = 'x-optional-auth';

export type AccessRule =
  { kind: 'public'; optionalUser: boolean } | { kind: 'roles'; roles: readonly Role[] };

/**
 * Anyone may call this route. With `optionalUser`, a bearer token, when sent, must be valid and
 * identifies the caller (placing an order as a guest or as a signed-in customer).
 */
export function Public(options: { optionalUser?: boolean } = {}) {
  const rule: AccessRule = { kind: 'public', optionalUser: options.optionalUser ?? false };
  const decorators: (ClassDecorator & MethodDecorator)[] = [SetMetadata(ACCESS_RULE, rule)];
  if (rule.optionalUser) {
    decorators.push(
      ApiBearerAuth('bearer'),
      // Read by the OpenAPI document builder: the token is optional here (see openapi.ts).
      ApiExtension(OPTIONAL_AUTH_EXTENSION, true),
      ApiUnauthorizedResponse({
        type: ErrorResponseDto,
        description: 'A token was sent but is not valid',
      }),
    );
  }
  return applyDecorators(...decorators);
}

/** Only signed-in callers with one of these roles (any role when none is named). */
export function Auth(...roles: Role[]) {
  const rule: AccessRule = { kind: 'roles', roles: roles.length ? roles : ROLES };
  return applyDecorators(
    SetMetadata(ACCESS_RULE, rule),
    ApiBearerAuth('bearer'),
    ApiUnauthorizedResponse({
      type: ErrorResponseDto,
      description: 'No token, or an invalid or expired one',
    }),
    ApiForbiddenResponse({
      type: ErrorResponseDto,
      description: `Deactivated account, or a role other than: ${rule.roles.join(', ')}`,
    }),
  );
}
