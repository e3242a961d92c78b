// Several middlewares run as one: Express's router matches every layer's path and runs its
// bookkeeping for each `next()`; the steps of the request prelude and of the gates before the body
// is read apply to every path, so they are called in sequence here. A step's error (passed to
// `next` or a rejected promise) goes to Express's error handling as usual.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function compose(...steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let i = 0;
    const next = (err?: unknown): void => {
      if (err !== undefined && err !== null) return done(err);
      const step = steps[i++];
      if (!step) return done();
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) result.catch(done);
      } catch (error) {
        done(error);
      }
    };
    next();
  };
}
