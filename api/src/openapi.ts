import { ParseUUIDPipe, type INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';
import {
  targetConstructorToSchema,
  validationMetadatasToSchemas,
} from 'class-validator-jsonschema';
import { OPTIONAL_AUTH_EXTENSION } from './common/access.decorators';
import { ParseObjectIdPipe } from './common/parse-object-id.pipe';

export const DOCS_PATH = 'api/docs';

/** The OpenAPI document, generated from the controllers and DTOs; never written by hand. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Seedling Propagation Centre API')
    .setDescription(
      'REST API of the online shop of the Seedling Propagation Centre, Kiambu. Every answer carries ' +
        '`success` and `message`; errors are `{ success: false, message, statusCode, code, errors? }`, where `code` is a stable machine-readable reason (see the ErrorCode schema). ' +
        'Money is whole Kenyan shillings (KES); dates are ISO 8601 in UTC.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  return completeDocument(
    SwaggerModule.createDocument(app, config),
    bodyClasses(app),
    pathParameterSchemas(app),
  );
}

interface ControllerClass {
  readonly name: string;
  readonly prototype: object;
}

/** Each handler of the application's controllers, with its class. */
function* handlers(
  app: INestApplication,
): Generator<{ controller: ControllerClass; method: string }> {
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as ControllerClass | null;
      if (!controller?.prototype) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype))
        if (method !== 'constructor') yield { controller, method };
    }
  }
}

/** The classes the controllers take as arguments (bodies and queries), by name. */
function bodyClasses(app: INestApplication): Map<string, new () => unknown> {
  const classes = new Map<string, new () => unknown>();
  for (const { controller, method } of handlers(app)) {
    const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ??
      []) as unknown[];
    for (const type of types) {
      if (typeof type === 'function' && type.name.endsWith('Dto'))
        classes.set(type.name, type as new () => unknown);
    }
  }
  return classes;
}

interface RouteArgument {
  data?: unknown;
  pipes?: unknown[];
}

type PathSchema = SchemaObject & { type: 'string' };
const OBJECT_ID: PathSchema = { type: 'string', pattern: '^[0-9a-fA-F]{24}$' };
const UUID: PathSchema = { type: 'string', format: 'uuid' };

/** What the pipe a path parameter is read through takes, as a schema (none: any text). */
function pathSchemaOf(pipes: unknown[] = []): PathSchema | undefined {
  for (const pipe of pipes) {
    if (pipe === ParseObjectIdPipe || pipe instanceof ParseObjectIdPipe) return OBJECT_ID;
    if (pipe === ParseUUIDPipe || pipe instanceof ParseUUIDPipe) return UUID;
  }
  return undefined;
}

/**
 * The schema of each path parameter an operation (by its operationId, `Controller_method`) reads
 * through ParseObjectIdPipe or ParseUUIDPipe, so that the document says what the pipe takes.
 */
function pathParameterSchemas(app: INestApplication): Map<string, Map<string, PathSchema>> {
  const byOperation = new Map<string, Map<string, PathSchema>>();
  for (const { controller, method } of handlers(app)) {
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<
      string,
      RouteArgument
    >;
    for (const [key, arg] of Object.entries(args)) {
      const inPath = key.split(':')[0] === String(RouteParamtypes.PARAM);
      const schema = pathSchemaOf(arg.pipes);
      if (!inPath || typeof arg.data !== 'string' || !schema) continue;
      const id = `${controller.name}_${method}`;
      byOperation.set(id, (byOperation.get(id) ?? new Map()).set(arg.data, schema));
    }
  }
  return byOperation;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorResponseDto' };

/**
 * What holds for every route and the decorators would only repeat: a route with parameters or a body
 * can answer 400 (the validation pipe) and a JSON body 413 (over 1 MB); a path with an id answers
 * 404, and an id read through ParseObjectIdPipe or ParseUUIDPipe is documented as what it takes; a request body takes no property it does not list (the
 * validation pipe refuses unknown ones), states the limits its validators enforce and lets an optional
 * property be null; a token marked optional may be left out.
 */
function completeDocument(
  document: OpenAPIObject,
  classes: Map<string, new () => unknown>,
  pathSchemas: Map<string, Map<string, PathSchema>>,
): OpenAPIObject {
  const rules = validationMetadatasToSchemas() as Record<string, SchemaObject>;
  // A class that only inherits its fields (UpdateAdminProfileDto) has its parent's rules.
  for (const [name, type] of classes) rules[name] = targetConstructorToSchema(type) as SchemaObject;
  // Query DTOs are spread into parameters; their rules are found by the parameter's name.
  const queryRules: SchemaObject = { properties: {} };
  for (const [name, schema] of Object.entries(rules)) {
    if (name.endsWith('QueryDto'))
      queryRules.properties = { ...schema.properties, ...queryRules.properties };
  }
  const requestSchemas = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as (OperationObject & Record<string, unknown>) | undefined;
      if (!operation) continue;
      const errorAnswer = (code: string, description: string) => {
        operation.responses[code] ??= {
          description,
          content: { 'application/json': { schema: ERROR_SCHEMA } },
        };
      };
      const parameters = (operation.parameters ?? []) as ParameterObject[];
      for (const parameter of parameters) {
        const pathSchema =
          parameter.in === 'path'
            ? pathSchemas.get(operation.operationId ?? '')?.get(parameter.name)
            : undefined;
        if (pathSchema) parameter.schema = { ...pathSchema };
        if (parameter.in === 'query' && parameter.schema && !('$ref' in parameter.schema)) {
          addValidationRules(
            { type: 'object', properties: { [parameter.name]: parameter.schema } },
            queryRules,
          );
        }
      }
      if (parameters.length || operation.requestBody)
        errorAnswer('400', 'The request is not valid; `errors` names each field and why');
      if (parameters.some((p) => p.in === 'path')) errorAnswer('404', 'Nothing has this id');
      const json = (operation.requestBody as { content?: Record<string, { schema?: unknown }> })
        ?.content?.['application/json'];
      if (json) {
        errorAnswer('413', 'The body is larger than 1 MB');
        collectRefs(json.schema, document, requestSchemas);
      }
      if (operation[OPTIONAL_AUTH_EXTENSION]) {
        operation.security = [...(operation.security ?? []), {}];
        delete operation[OPTIONAL_AUTH_EXTENSION];
      }
    }
  }
  for (const name of requestSchemas) {
    const schema = document.components?.schemas?.[name] as SchemaObject | undefined;
    if (schema?.type !== 'object') continue;
    schema.additionalProperties = false;
    addValidationRules(schema, rules[name]);
    // `@IsOptional` lets null through as "not given", so an optional property may be null.
    for (const [field, property] of Object.entries(schema.properties ?? {}) as [
      string,
      SchemaObject,
    ][]) {
      if ('$ref' in property) continue;
      if (!schema.required?.includes(field)) property.nullable = true;
      // A required text is never empty (every one is `@IsNotEmpty`, inherited ones included).
      else if (property.type === 'string' && property.format !== 'binary') {
        property.minLength ??= 1;
        // Texts are trimmed before they are checked: blanks alone are empty.
        property.pattern ??= '\\S';
      }
    }
  }
  return document;
}

const RULE_KEYS = [
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
] as const;

/**
 * Copies onto a request schema the limits its class-validator decorators enforce (read with
 * class-validator-jsonschema), so the document states exactly what the API accepts: a whole number
 * where `@IsInt` is, the patterns of `@Matches`, the lengths, the list sizes.
 */
function addValidationRules(schema: SchemaObject, rules: SchemaObject | undefined): void {
  if (!rules?.properties || !schema.properties) return;
  for (const [field, property] of Object.entries(schema.properties) as [string, SchemaObject][]) {
    const rule = rules.properties[field] as SchemaObject | undefined;
    if (!rule || '$ref' in property) continue;
    if (rule.type === 'integer' && property.type === 'number') property.type = 'integer';
    for (const key of RULE_KEYS) {
      if (rule[key] !== undefined && property[key] === undefined)
        (property as Record<string, unknown>)[key] = rule[key];
    }
    if (property.pattern) property.pattern = asciiDigits(property.pattern);
  }
}

/**
 * `\d` is 0-9 in JavaScript but any Unicode digit in other languages' regular expressions (Python's,
 * which schemathesis generates from): the document spells it out.
 */
export function asciiDigits(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      out += next === 'd' ? (inClass ? '0-9' : '[0-9]') : c + (next ?? '');
      i++;
    } else {
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      out += c;
    }
  }
  return out;
}

/** The component schemas `schema` uses, directly or through others. */
function collectRefs(schema: unknown, document: OpenAPIObject, into: Set<string>): void {
  if (!schema || typeof schema !== 'object') return;
  const ref = (schema as ReferenceObject).$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').at(-1)!;
    if (into.has(name)) return;
    into.add(name);
    collectRefs(document.components?.schemas?.[name], document, into);
    return;
  }
  for (const value of Object.values(schema)) collectRefs(value, document, into);
}
