import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ACCESS_RULE } from './access.decorators';

/** Refuses to start when a route has no declared access rule, so none can slip through unnoticed. */
@Injectable()
export class AccessRulesCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const missing: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        if (!this.reflector.getAllAndOverride(ACCESS_RULE, [handler, metatype])) {
          missing.push(
            `${metatype.name}.${name} (${String(Reflect.getMetadata(PATH_METADATA, handler))})`,
          );
        }
      }
    }
    if (missing.length) {
      throw new Error(`Routes without an access rule (@Public or @Auth): ${missing.join(', ')}`);
    }
  }
}
