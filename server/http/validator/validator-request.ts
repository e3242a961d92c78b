// express-openapi-validator's request validation (its RequestValidator's middleware, 5.6.2) with the
// per-request preparation done once per operation and media type. The stock middleware, on every
// request, derives each of the operation's parameters again (dereferencing it, normalizing its
// style, looking its schema up in ajv) and builds a new parameter mutator: ~30 µs on the banking
// page's 20 parameters, more than its ajv validators take. Here that is derived when the check is
// built; each request runs the mutator's own steps for the parameters, the validator's own unknown-
// and empty-parameter check, the same compiled ajv validators (keyed as the stock middleware keys
// them) and throws the same errors. test/http.validator-equivalence.test.ts holds it to the stock
// middleware's verdicts, coercions and error lists for every operation.
import { parse as parseUrl } from 'node:url';
import type { Request } from 'express';
import type { RequestValidator } from 'express-openapi-validator/dist/middlewares/index.js';
import { ParametersSchemaParser } from 'express-openapi-validator/dist/middlewares/parsers/schema.parse.js';
import { BodySchemaParser } from 'express-openapi-validator/dist/middlewares/parsers/body.parse.js';
import { RequestParameterMutator } from 'express-openapi-validator/dist/middlewares/parsers/req.parameter.mutator.js';
import { dereferenceParameter, normalizeParameter } from 'express-openapi-validator/dist/middlewares/parsers/util.js';
import {
  ajvErrorsToValidatorError,
  augmentAjvErrors,
  type ContentType,
  useAjvCache,
} from 'express-openapi-validator/dist/middlewares/util.js';
import { BadRequest, NotFound } from 'express-openapi-validator/dist/framework/types.js';

type Json = Record<string, any>;
type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** The parts of the stock RequestValidator (and its mutator) this drives: fields and methods it keeps private. */
interface Stock {
  apiDoc: Json;
  ajv: any;
  ajvBody: any;
  requestOpts: { allowUnknownQueryParameters?: boolean };
  discriminatorValidator(req: Request, discriminator: unknown): Validate | null;
  multipartNested(req: Request, schemaBody: unknown): void;
  processQueryParam(query: unknown, schema: unknown, whiteList: string[]): void;
}
interface Mutator {
  parseQueryStringUndecoded(qs: string | null): Map<string, string[]>;
  handleBracketNotationQueryFields(query: Json): Json;
  validateReservedCharacters(name: string, pairs: Map<string, string[]>, allowComma?: boolean): void;
  handleContent(req: Request, name: string, parameter: Json): void;
  parseJsonAndMutateRequest(req: Request, $in: string, name: string): void;
  handleFormExplode(req: Request, name: string, schema: Json, parameter: Json): void;
  handleDeepObject(req: Request, qs: string, name: string, schema: Json): void;
  csvToKeyValuePairs(csv: string): Json | undefined;
  validateArrayDelimiter(delimiter: string | undefined, parameter: Json): void;
  parseJsonArrayAndMutateRequest(
    req: Request,
    $in: string,
    name: string,
    delimiter: string | undefined,
    rawQuery: Map<string, string[]>,
  ): void;
  explodeJsonArrayAndMutateRequest(req: Request, $in: string, name: string): void;
  isObjectOrXOf(schema: Json): boolean;
}

const ARRAY_DELIMITER: Record<string, string> = { simple: ',', form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** One parameter's step of the mutator's `modifyRequest`, its branch chosen once. */
type ParameterStep = (req: Request, rawQuery: Map<string, string[]>, queryString: string) => void;

function parameterStep(m: Mutator, ajv: unknown, apiDoc: Json, declared: Json): ParameterStep {
  const parameter = dereferenceParameter(apiDoc as never, declared as never) as Json;
  const { name, schema } = normalizeParameter(ajv as never, parameter as never) as { name: string; schema: Json };
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
        const value = (req.query as Json)[name];
        if (typeof value === 'string') {
          const pairs = m.csvToKeyValuePairs(value);
          if (pairs) {
            (req.query as Json)[name] = pairs;
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
function securityQueryParams(apiDoc: Json, operation: Json): string[] {
  const used = operation.security?.length > 0 ? operation.security : apiDoc.security?.length > 0 ? apiDoc.security : [];
  const schemes = apiDoc.components?.securitySchemes;
  if (!schemes) return [];
  return (used as Json[])
    .filter((requirement) => Object.entries(requirement).length !== 0)
    .map((requirement) => schemes[Object.keys(requirement)[0]!])
    .filter((scheme) => scheme?.type === 'apiKey' && scheme?.in === 'query')
    .map((scheme) => scheme.name);
}

/**
 * The check of one operation (its `req.openapi`, as the stock middleware reads it) for requests of one
 * media type: throws the validator's error, or returns once the request is valid (its query coerced).
 */
export function requestCheck(
  validator: RequestValidator,
  expressRoute: string,
  reqSchema: Json,
  contentType: ContentType,
  ajvCacheKey: string,
): (req: Request) => void {
  const stock = validator as unknown as Stock;
  const { apiDoc, ajv } = stock;
  const parameters = new ParametersSchemaParser(ajv, apiDoc as never).parse(expressRoute, reqSchema.parameters);
  const body = new BodySchemaParser().parse(expressRoute, reqSchema as never, contentType) as Json;
  // The stock Validator's two schemas: everything but the body (coerced), and the body.
  const schemaGeneral = {
    paths: apiDoc.paths,
    components: apiDoc.components,
    required: ['query', 'headers', 'params'],
    properties: { ...parameters, body: {} },
  };
  const binary = body?.format === 'binary';
  const schemaBody: Json = {
    paths: apiDoc.paths,
    components: apiDoc.components,
    properties: { query: {}, headers: {}, params: {}, cookies: {}, body: binary ? {} : body },
  };
  if (body.required && !binary) schemaBody.required = ['body'];
  const allSchemaProperties = { ...schemaGeneral.properties, body: schemaBody.properties.body };
  const validatorGeneral = useAjvCache(ajv, schemaGeneral, ajvCacheKey) as unknown as Validate;
  const validatorBody = useAjvCache(stock.ajvBody, schemaBody, ajvCacheKey) as unknown as Validate;
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
  const steps = ((reqSchema.parameters ?? []) as Json[]).map((p) => parameterStep(mutator, ajv, apiDoc, p));
  const discriminator = (schemaBody.properties.body as Json | undefined)?._discriminator;
  const multipart = contentType.mediaType === 'multipart/form-data';
  const wildcard = expressRoute.endsWith('*');

  return (req) => {
    const openapi = (req as Request & { openapi: Json }).openapi;
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
    const query = req.query as Json;
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
