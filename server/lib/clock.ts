/** The source of time. Tests pass a controllable clock; production uses `systemClock`. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-11-20T15:00:00Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** A clock running `offsetMs` ahead of `wall`: a company's clock once the sandbox has moved it. */
export const offsetClock = (wall: Clock, offsetMs: number): Clock =>
  offsetMs === 0 ? wall : { now: () => new Date(wall.now().getTime() + offsetMs) };
