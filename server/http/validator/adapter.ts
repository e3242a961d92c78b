// The adapter: the only file that reaches into express-openapi-validator's private modules and
// fields. package.json pins the package exactly (5.6.2); an upgrade is a port of this file, checked
// by test/http.validator-equivalence.test.ts (every operation's requests: the same verdicts,
// coercions and error lists as the stock middleware) and test/http.response-validation.test.ts (the
// same verdicts on answers). Everything else uses what it exports: `loadEngine` and `ValidatorOptions`.
//
// The engine: express-openapi-validator's own parts, assembled as its `middleware()` assembles them (spec loader,
// schema preprocessor, request and response validators, with its option defaults), minus the
// per-request route lookup: each operation's route record (express route, schema, response schema)
// is read once from the validator's loaded route table and handed over with the match. Requests are
// checked by the request validator's steps prepared once per operation and media type
// (below, "Requests"); answers by its response validator as is.
//
// Requests: express-openapi-validator's request validation (its RequestValidator's middleware, 5.6.2) with the
// per-request preparation done once per operation and media type. The stock middleware, on every
// request, derives each of the operation's parameters again (dereferencing it, normalizing its
// style, looking its schema up in ajv) and builds a new parameter mutator: ~30 µs on the banking
// page's 20 parameters, more than its ajv validators take. Here that is derived when the check is
// built; each request runs the mutator's own steps for the parameters, the validator's own unknown-
// and empty-parameter check, the same ajv validators (keyed as the stock middleware keys them, their
// schemas referring into the contract added once rather than each carrying it) and throws the same
// errors. test/http.validator-equivalence.test.ts holds it to the stock middleware's verdicts,
// coercions and error lists for every operation.
import { parse as parseUrl } from 'node:url';
import type { NextFunction, Request, Response } from 'express';
import { OpenApiValidator, type OpenApiValidatorOpts } from 'express-openapi-validator/dist/openapi.validator.js';
import { OpenApiSpecLoader } from 'express-openapi-validator/dist/framework/openapi.spec.loader.js';
import { OpenApiContext } from 'express-openapi-validator/dist/framework/openapi.context.js';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js';
import { RequestValidator, ResponseValidator } from 'express-openapi-validator/dist/middlewares/index.js';
import { ParametersSchemaParser } from 'express-openapi-validator/dist/middlewares/parsers/schema.parse.js';
import { BodySchemaParser } from 'express-openapi-validator/dist/middlewares/parsers/body.parse.js';
import { RequestParameterMutator } from 'express-openapi-validator/dist/middlewares/parsers/req.parameter.mutator.js';
import { dereferenceParameter, normalizeParameter } from 'express-openapi-validator/dist/middlewares/parsers/util.js';
import {
  ajvErrorsToValidatorError,
  augmentAjvErrors,
  ContentType,
  useAjvCache,
} from 'express-openapi-validator/dist/middlewares/util.js';
import { BadRequest, NotFound } from 'express-openapi-validator/dist/framework/types.js';
import type { OperationMatch } from '../pipeline/context.js';

/** The validator's options (its `middleware()` takes the same). */
export type ValidatorOptions = OpenApiValidatorOpts;

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

export async function loadEngine(options: ValidatorOptions): Promise<ValidatorEngine> {
  // The constructor fills in the validator's defaults and derives its ajv options.
  const oav = new OpenApiValidator(options);
  const opts = oav.options;
  const loader = new OpenApiSpecLoader({
    apiDoc: opts.apiSpec as never,
    validateApiSpec: opts.validateApiSpec,
    $refParser: opts.$refParser,
  });
  if (!opts.validateApiSpec) withoutSpecValidator(loader);
  const spec = await loader.load();
  const preprocessor = new SchemaPreprocessor(spec.apiDoc, oav.ajvOpts.preprocessor, opts.validateResponses as never);
  resolveWithoutCompiling(preprocessor);
  const { apiDocRes } = preprocessor.preProcess();
  const context = new OpenApiContext(spec, opts.ignorePaths as never, opts.ignoreUndocumented, opts.useRequestUrl);
  const requests = new RequestValidator(context.apiDoc, oav.ajvOpts.request);
  const { ajv, ajvBody } = requests as unknown as Stock;
  for (const into of [ajv, ajvBody])
    into.addSchema(absoluteRefs({ $id: CONTRACT_ID, components: context.apiDoc.components }));
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

/**
 * The stock loader builds the OpenAPI meta-schema's validator (an ajv compile, ~8% of a server's
 * start) even when the contract is not to be checked against it (`validateApiSpec: false`, ours: the
 * build checks it), and only calls it when it is; and it bundles the spec with json-schema-ref-parser,
 * which for a document whose every `$ref` is local (`#/…`) crawls it (~10%) to return it unchanged (the
 * equivalence test holds ours to that). Here, as its `initialize` with that option: the spec (bundled
 * when it refers outside itself), the base paths of its servers, its tags sorted, the routes visited.
 */
function withoutSpecValidator(loader: OpenApiSpecLoader): void {
  type BasePath = { all(): string[] };
  const framework = (loader as unknown as { framework: Loose }).framework;
  framework.initialize = async (visitor: {
    visitApi?(context: { basePaths: string[]; getApiDoc(): unknown }): void;
  }) => {
    const args = framework.args;
    const apiDoc =
      typeof args.apiDoc === 'object' && onlyLocalRefs(args.apiDoc)
        ? args.apiDoc
        : await framework.loadSpec(args.apiDoc, args.$refParser);
    const basePaths = [
      ...new Set((framework.getBasePathsFromServers(apiDoc.servers) as BasePath[]).flatMap((path) => path.all())),
    ];
    framework.sortApiDocTags(apiDoc);
    visitor.visitApi?.({ basePaths, getApiDoc: () => apiDoc });
    return { apiDoc, basePaths };
  };
}

/** The spec as the stock loader loads it (bundled), for the equivalence test to compare with what the engine skips. */
export async function stockLoadedSpec(apiDoc: object): Promise<unknown> {
  return (await new OpenApiSpecLoader({ apiDoc: apiDoc as never, validateApiSpec: false }).load()).apiDoc;
}

/** Whether every `$ref` in the document points into the document itself. */
export function onlyLocalRefs(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(onlyLocalRefs);
  if (node === null || typeof node !== 'object') return true;
  for (const [key, value] of Object.entries(node as Json))
    if (key === '$ref' ? typeof value !== 'string' || !value.startsWith('#') : !onlyLocalRefs(value)) return false;
  return true;
}

/**
 * The stock schema preprocessor resolves a `$ref` to a component schema by asking its ajv for the
 * compiled schema and keeping only `.schema` (the component itself): every component the contract
 * refers to is compiled once at start and thrown away with that ajv (~17% of a server's start).
 * Here a component it holds is taken as added, uncompiled: the same object; any other `$ref` as stock.
 */
function resolveWithoutCompiling(preprocessor: SchemaPreprocessor): void {
  const stock = preprocessor as unknown as {
    ajv: { schemas: Record<string, { schema: unknown } | undefined> };
    resolvedSchemaCache: Map<string, unknown>;
    resolveSchema(schema: Loose | undefined): unknown;
  };
  const resolve = stock.resolveSchema.bind(stock);
  stock.resolveSchema = (schema) => {
    const ref = schema?.$ref;
    const added = typeof ref === 'string' && !stock.resolvedSchemaCache.has(ref) ? stock.ajv.schemas[ref] : undefined;
    if (!added) return resolve(schema);
    stock.resolvedSchemaCache.set(ref, added.schema);
    return added.schema;
  };
}

/** Where the validators' ajv instances keep the contract, added once (any id no schema of ours uses). */
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
    ajvBody: {
      schemas: Record<string, unknown>;
      addSchema(schema: unknown, key?: string): void;
      getSchema(key: string): unknown;
    };
    spec: { paths?: Json; components?: Json & { responses?: Record<string, Json> } };
    canValidateContentType(contentType: string): boolean;
    buildValidators(responses: Record<string, Json>, key: string): unknown;
  };
  const { spec, ajvBody: ajv } = stock;
  ajv.addSchema(absoluteRefs({ $id: CONTRACT_ID, paths: spec.paths ?? {}, components: spec.components ?? {} }));
  // As the stock `buildValidators`: per status, one validator per JSON media type, `{}` for no content;
  // each compiled when an answer with its status is first checked, not with the operation's first
  // answer (an operation declares 5–9 statuses and most answers are its success: compiling every one
  // up front was ~1 s of a sandbox's start, for the few calls its demo data makes).
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
        if (!ajv.schemas[cacheKey])
          ajv.addSchema({ type: 'object', properties: { response: absoluteRefs(schema) } }, cacheKey);
        Object.defineProperty((validators[code] ??= {}), mediaType, {
          enumerable: true,
          get: () => ajv.getSchema(cacheKey),
        });
      }
    }
    return validators;
  };
}

type Loose = Record<string, any>;
type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** The parts of the stock RequestValidator (and its mutator) this drives: fields and methods it keeps private. */
interface Stock {
  apiDoc: Loose;
  ajv: any;
  ajvBody: any;
  requestOpts: { allowUnknownQueryParameters?: boolean };
  discriminatorValidator(req: Request, discriminator: unknown): Validate | null;
  multipartNested(req: Request, schemaBody: unknown): void;
  processQueryParam(query: unknown, schema: unknown, whiteList: string[]): void;
}
interface Mutator {
  parseQueryStringUndecoded(qs: string | null): Map<string, string[]>;
  handleBracketNotationQueryFields(query: Loose): Loose;
  validateReservedCharacters(name: string, pairs: Map<string, string[]>, allowComma?: boolean): void;
  handleContent(req: Request, name: string, parameter: Loose): void;
  parseJsonAndMutateRequest(req: Request, $in: string, name: string): void;
  handleFormExplode(req: Request, name: string, schema: Loose, parameter: Loose): void;
  handleDeepObject(req: Request, qs: string, name: string, schema: Loose): void;
  csvToKeyValuePairs(csv: string): Loose | undefined;
  validateArrayDelimiter(delimiter: string | undefined, parameter: Loose): void;
  parseJsonArrayAndMutateRequest(
    req: Request,
    $in: string,
    name: string,
    delimiter: string | undefined,
    rawQuery: Map<string, string[]>,
  ): void;
  explodeJsonArrayAndMutateRequest(req: Request, $in: string, name: string): void;
  isObjectOrXOf(schema: Loose): boolean;
}

const ARRAY_DELIMITER: Record<string, string> = { simple: ',', form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** One parameter's step of the mutator's `modifyRequest`, its branch chosen once. */
type ParameterStep = (req: Request, rawQuery: Map<string, string[]>, queryString: string) => void;

function parameterStep(m: Mutator, ajv: unknown, apiDoc: Loose, declared: Loose): ParameterStep {
  const parameter = dereferenceParameter(apiDoc as never, declared as never) as Loose;
  const { name, schema } = normalizeParameter(ajv as never, parameter as never) as { name: string; schema: Loose };
  const { style, explode } = parameter;
  const inQuery = parameter.in === 'query';
  const reserved =
    inQuery && !parameter.allowReserved
      ? (rawQuery: Map<string, string[]>) => m.validateReservedCharacters(name, rawQuery, !explode)
      : undefined;
  let mutate: ParameterStep | undefined;
  if (parameter.content) mutate = (req) => m.handleContent(req, name, parameter);
  else if (inQuery && m.isObjectOrXOf(schema)) {
    if (style === 'form' && explode)
      mutate = (req) => {
        m.parseJsonAndMutateRequest(req, parameter.in, name);
        m.handleFormExplode(req, name, schema, parameter);
      };
    else if (style === 'deepObject') mutate = (req, _raw, qs) => m.handleDeepObject(req, qs, name, schema);
    else if (style === 'form' && !explode && schema.type === 'object')
      mutate = (req) => {
        const value = (req.query as Loose)[name];
        if (typeof value === 'string') {
          const pairs = m.csvToKeyValuePairs(value);
          if (pairs) {
            (req.query as Loose)[name] = pairs;
            return;
          }
        }
        m.parseJsonAndMutateRequest(req, parameter.in, name);
      };
    else mutate = (req) => m.parseJsonAndMutateRequest(req, parameter.in, name);
  } else if (schema.type === 'array' && !explode) {
    const delimiter = ARRAY_DELIMITER[style];
    mutate = (req, rawQuery) => {
      m.validateArrayDelimiter(delimiter, parameter);
      m.parseJsonArrayAndMutateRequest(req, parameter.in, name, delimiter, rawQuery);
    };
  } else if (schema.type === 'array' && explode)
    mutate = (req) => m.explodeJsonArrayAndMutateRequest(req, parameter.in, name);
  else if (style === 'form' && explode) mutate = (req) => m.handleFormExplode(req, name, schema, parameter);
  if (!reserved) return mutate ?? (() => undefined);
  return (req, rawQuery, qs) => {
    reserved(rawQuery);
    mutate?.(req, rawQuery, qs);
  };
}

/** The query names an API-key scheme of the operation takes (they are never unknown), as the stock Security.queryParam. */
function securityQueryParams(apiDoc: Loose, operation: Loose): string[] {
  const used = operation.security?.length > 0 ? operation.security : apiDoc.security?.length > 0 ? apiDoc.security : [];
  const schemes = apiDoc.components?.securitySchemes;
  if (!schemes) return [];
  return (used as Loose[])
    .filter((requirement) => Object.entries(requirement).length !== 0)
    .map((requirement) => schemes[Object.keys(requirement)[0]!])
    .filter((scheme) => scheme?.type === 'apiKey' && scheme?.in === 'query')
    .map((scheme) => scheme.name);
}

/**
 * The check of one operation (its `req.openapi`, as the stock middleware reads it) for requests of one
 * media type: throws the validator's error, or returns once the request is valid (its query coerced).
 */
function requestCheck(
  validator: RequestValidator,
  expressRoute: string,
  reqSchema: Loose,
  contentType: ContentType,
  ajvCacheKey: string,
): (req: Request) => void {
  const stock = validator as unknown as Stock;
  const { apiDoc, ajv } = stock;
  const parameters = new ParametersSchemaParser(ajv, apiDoc as never).parse(expressRoute, reqSchema.parameters);
  const body = new BodySchemaParser().parse(expressRoute, reqSchema as never, contentType) as Loose;
  // The stock Validator's two schemas: everything but the body (coerced), and the body. The stock
  // roots carry the whole contract for their `#/…` references, which ajv walks again on every
  // compile (~40% of a fresh server's CPU, its first request of each operation); here they refer
  // into the contract's components, added to each of its two ajv instances once (loadEngine).
  const schemaGeneral = { required: ['query', 'headers', 'params'], properties: { ...parameters, body: {} } };
  const binary = body?.format === 'binary';
  const schemaBody: Loose = {
    properties: { query: {}, headers: {}, params: {}, cookies: {}, body: binary ? {} : body },
  };
  if (body.required && !binary) schemaBody.required = ['body'];
  const allSchemaProperties = { ...schemaGeneral.properties, body: schemaBody.properties.body };
  const compiled = (into: unknown, schema: Loose) =>
    useAjvCache(into as never, absoluteRefs(schema) as never, ajvCacheKey) as unknown as Validate;
  const validatorGeneral = compiled(ajv, schemaGeneral);
  const validatorBody = compiled(stock.ajvBody, schemaBody);
  const allowUnknownQueryParameters = !!(
    reqSchema['x-eov-allow-unknown-query-parameters'] ??
    reqSchema['x-allow-unknown-query-parameters'] ??
    stock.requestOpts.allowUnknownQueryParameters
  );
  const securityQuery = securityQueryParams(apiDoc, reqSchema);
  const mutator = new RequestParameterMutator(
    ajv,
    apiDoc as never,
    expressRoute,
    allSchemaProperties as never,
  ) as unknown as Mutator;
  const steps = ((reqSchema.parameters ?? []) as Loose[]).map((p) => parameterStep(mutator, ajv, apiDoc, p));
  const discriminator = (schemaBody.properties.body as Loose | undefined)?._discriminator;
  const multipart = contentType.mediaType === 'multipart/form-data';
  const wildcard = expressRoute.endsWith('*');

  return (req) => {
    const openapi = (req as Request & { openapi: Loose }).openapi;
    const pathParams = openapi.pathParams as Record<string, string>;
    if (Object.keys(pathParams).length > 0) {
      // A wildcard route (`/files/:p*`) needs its parameter: without it the path is another route.
      if (wildcard && Object.keys(pathParams).every((p) => !pathParams[p]))
        throw new NotFound({ path: req.path, message: 'not found' });
      req.params = pathParams;
    }
    // As the stock middleware: Express 5's req.query is a getter, made a value while it is mutated.
    const queryDescriptor = Object.getOwnPropertyDescriptor(req, 'query');
    Object.defineProperty(req, 'query', { writable: true, value: req.query });
    const url = req.originalUrl;
    const rawQuery = mutator.parseQueryStringUndecoded(url.includes('?') ? parseUrl(url).query : null);
    const query = req.query as Loose;
    for (const key in query) {
      if (key.includes('[')) {
        req.query = mutator.handleBracketNotationQueryFields(query) as never;
        break;
      }
    }
    const queryString = url.substr(url.indexOf('?') + 1);
    for (const step of steps) step(req, rawQuery, queryString);
    if (!allowUnknownQueryParameters) stock.processQueryParam(req.query, allSchemaProperties.query, securityQuery);
    if (multipart) {
      req.body ??= {};
      stock.multipartNested(req, schemaBody);
    }
    if (queryDescriptor) Object.defineProperty(req, 'query', queryDescriptor);

    const cookies = req.cookies ? { ...req.cookies, ...req.signedCookies } : undefined;
    const data = { query: req.query ?? {}, headers: req.headers, params: req.params, cookies, body: req.body };
    const byDiscriminator = stock.discriminatorValidator(req, discriminator);
    const bodyValidator = byDiscriminator ?? validatorBody;
    const valid = validatorGeneral(data);
    const validBody = bodyValidator(byDiscriminator ? data.body : data);
    if (valid && validBody) return;
    const errors = augmentAjvErrors(
      ([] as never[])
        .concat((validatorGeneral.errors ?? []) as never[])
        .concat((bodyValidator.errors ?? []) as never[]),
    );
    const err = ajvErrorsToValidatorError(400, errors);
    const error = new BadRequest({ path: req.path, message: ajv.errorsText(errors, { dataVar: 'request' }) });
    error.errors = err.errors;
    throw error;
  };
}
