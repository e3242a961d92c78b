// express-openapi-validator's own parts, assembled as its `middleware()` assembles them (spec loader,
// schema preprocessor, request and response validators, with its option defaults), minus the
// per-request route lookup: each operation's route record (express route, schema, response schema)
// is read once from the validator's loaded route table and handed over with the match. Requests are
// checked by the request validator's steps prepared once per operation and media type
// (validator-request.ts); answers by its response validator as is.
import type { NextFunction, Request, Response } from 'express';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator.js';
import { OpenApiSpecLoader } from 'express-openapi-validator/dist/framework/openapi.spec.loader.js';
import { OpenApiContext } from 'express-openapi-validator/dist/framework/openapi.context.js';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js';
import { RequestValidator, ResponseValidator } from 'express-openapi-validator/dist/middlewares/index.js';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import { ContentType } from 'express-openapi-validator/dist/middlewares/util.js';
import type { OperationMatch } from '../pipeline/context.js';
import { requestCheck } from './validator-request.js';

interface RouteRecord {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  responseSchema: unknown;
}

export interface ValidatorEngine {
  /** Validates the matched request; calls `next` (or throws the validator's error) synchronously. */
  validate(match: OperationMatch, req: Request, res: Response, next: NextFunction): void;
  /** How many request and response validators it has built and keeps (keyed by method, route, Content-Type). */
  cachedValidators(): number;
}

export async function loadEngine(options: OpenApiValidatorOpts): Promise<ValidatorEngine> {
  // The constructor fills in the validator's defaults and derives its ajv options.
  const oav = new OpenApiValidator(options);
  const opts = oav.options;
  const spec = await new OpenApiSpecLoader({
    apiDoc: opts.apiSpec as never,
    validateApiSpec: opts.validateApiSpec,
    $refParser: opts.$refParser,
  }).load();
  const { apiDocRes } = new SchemaPreprocessor(
    spec.apiDoc,
    oav.ajvOpts.preprocessor,
    opts.validateResponses as never,
  ).preProcess();
  const context = new OpenApiContext(spec, opts.ignorePaths as never, opts.ignoreUndocumented, opts.useRequestUrl);
  const requests = new RequestValidator(context.apiDoc, oav.ajvOpts.request);
  const responseValidator = opts.validateResponses
    ? new ResponseValidator(apiDocRes, oav.ajvOpts.response, opts.validateResponses, context.serial)
    : undefined;
  if (responseValidator) compileAgainstOneContract(responseValidator);
  const responses = responseValidator?.validate();
  // The request checks, one per operation and media type (keyed as the stock middleware keys its
  // cache); the response validator's own cache, read, never changed. The bounded-cache test counts both.
  const checks = new Map<string, (req: Request) => void>();
  const responseCache = responseValidator as unknown as { validatorsCache?: object } | undefined;

  type Paths = Record<string, Record<string, unknown>>;
  const routes = new Map<string, RouteRecord>();
  for (const route of context.routes) {
    const path = route.openApiRoute.substring(route.basePath.length);
    const method = route.method.toLowerCase();
    routes.set(`${route.method} ${path}`, {
      expressRoute: route.expressRoute,
      openApiRoute: route.openApiRoute,
      schema: (context.apiDoc.paths as Paths)[path]?.[method],
      responseSchema: (apiDocRes?.paths as Paths | undefined)?.[path]?.[method],
    });
  }

  return {
    cachedValidators: () => checks.size + Object.keys(responseCache?.validatorsCache ?? {}).length,
    validate(match, req, res, next) {
      const route = routes.get(`${match.operation.method} ${match.operation.path}`);
      if (!route) throw new Error(`the validator has no route for ${match.operation.operationId}`);
      const openapi = {
        expressRoute: route.expressRoute,
        openApiRoute: route.openApiRoute,
        pathParams: match.params,
        schema: route.schema,
        serial: context.serial,
        _responseSchema: route.responseSchema,
      };
      Object.assign(req, { openapi, params: match.params });
      const contentType = ContentType.from(req as never);
      const key = `${req.method}-${route.expressRoute}-${contentType.normalize() ?? 'not_provided'}`;
      let check = checks.get(key);
      if (!check)
        checks.set(key, (check = requestCheck(requests, route.expressRoute, route.schema as never, contentType, key)));
      check(req);
      if (responses) responses(req, res, next);
      else next();
    },
  };
}

type Json = Record<string, unknown>;

/** Where the response validator's ajv keeps the contract, added once (any id no schema of ours uses). */
const CONTRACT_ID = 'urn:finance:contract';

/** `#/…` pointers made absolute in the contract added under CONTRACT_ID; the schemas are copied, not changed. */
function absoluteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absoluteRefs);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json))
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? CONTRACT_ID + value : absoluteRefs(value);
  return out;
}

/**
 * The stock response validator attaches the whole contract (paths and components) to each status's
 * schema before adding it to ajv, which walks all of it every time: 300 ms per operation on the first
 * answer, 5 s for the demo company's fixtures. Here the contract is added once and each status's
 * schema refers into it; the schemas, the ajv options, the cache and the verdicts are the stock ones.
 */
function compileAgainstOneContract(validator: ResponseValidator): void {
  const stock = validator as unknown as {
    ajvBody: { addSchema(schema: unknown, key?: string): void; getSchema(key: string): unknown };
    spec: { paths?: Json; components?: Json & { responses?: Record<string, Json> } };
    canValidateContentType(contentType: string): boolean;
    buildValidators(responses: Record<string, Json>, key: string): unknown;
  };
  const { spec, ajvBody: ajv } = stock;
  ajv.addSchema(absoluteRefs({ $id: CONTRACT_ID, paths: spec.paths ?? {}, components: spec.components ?? {} }));
  // As the stock `buildValidators`: per status, one validator per JSON media type, `{}` for no content.
  stock.buildValidators = (responses, key) => {
    const validators: Record<string, Record<string, unknown>> = {};
    for (const [code, declared] of Object.entries(responses ?? {})) {
      const response =
        typeof declared.$ref === 'string' ? spec.components?.responses?.[declared.$ref.replace(/^.+\//, '')] : declared;
      const content = response?.content as Record<string, { schema?: unknown }> | undefined;
      if (!content) {
        validators[code] = {};
        continue;
      }
      for (const mediaType of Object.keys(content)) {
        let json: boolean;
        try {
          json = stock.canValidateContentType(mediaType);
        } catch {
          json = mediaType === '*/*' || /^[a-z]+\/\*$/.test(mediaType);
        }
        const schema = content[mediaType]?.schema;
        if (!json || !schema) continue;
        const cacheKey = `${key}-${code}-${mediaType}`;
        if (!ajv.getSchema(cacheKey))
          ajv.addSchema({ type: 'object', properties: { response: absoluteRefs(schema) } }, cacheKey);
        validators[code] = { ...validators[code], [mediaType]: ajv.getSchema(cacheKey) };
      }
    }
    return validators;
  };
}
