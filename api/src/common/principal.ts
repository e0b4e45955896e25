import type { ActorKind, Role } from '@spc/shared-contracts';

/** Who does something: a signed-in person, or the shop itself. */
export interface Actor {
  id: string;
  role: ActorKind;
  fullName: string;
}

/** Who is calling: taken from the verified access token (and checked against the account). */
export interface Principal extends Actor {
  role: Role;
}

/** The shop acting on its own (a timer, a payment provider's callback): never a person. */
export interface SystemActor extends Actor {
  role: 'system';
}
