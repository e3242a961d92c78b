// Versioned answers kept (DESIGN §11): a statement list's or change feed's 200 is a function of its weak
// tag (conditional.ts: the company's statement version, the operation, the exact query, the company's
// time zone; no request header changes it), the same premise on which a request carrying that tag gets
// a 304. So the bytes answered under a tag are answered again, from memory, while the tag is current:
// no page query, no presentation, no serialization. Any write the answer shows takes the company's next
// change number in its own transaction, so the next request computes another tag and misses; nothing
// has to be invalidated, and an entry whose tag no longer comes up simply ages out.
// One per process, bounded by bytes (ANSWER_CACHE_MB), the least recently answered dropped first.

/** What is answered again: the JSON text as bytes, and the handler's own headers. */
interface KeptAnswer {
  body: Buffer;
  headers?: Record<string, string>;
}

/** An answer above this share of the budget is never kept (it would push out everything else). */
const LARGEST_SHARE = 8;

export class AnswerCache {
  private readonly entries = new Map<string, KeptAnswer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The answer kept under `tag`, now the most recently used; undefined when none is. */
  get(tag: string): KeptAnswer | undefined {
    const found = this.entries.get(tag);
    if (found === undefined) return undefined;
    this.entries.delete(tag);
    this.entries.set(tag, found);
    return found;
  }

  /** Keeps `answer` under `tag`, dropping the least recently used answers beyond the budget. */
  set(tag: string, answer: KeptAnswer): void {
    const size = answer.body.length + tag.length;
    if (size * LARGEST_SHARE > this.maxBytes) return;
    const previous = this.entries.get(tag);
    if (previous !== undefined) {
      this.entries.delete(tag);
      this.bytes -= previous.body.length + tag.length;
    }
    this.entries.set(tag, answer);
    this.bytes += size;
    for (const [oldest, kept] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= kept.body.length + oldest.length;
    }
  }

  /** Answers and bytes kept. */
  get size(): { answers: number; bytes: number } {
    return { answers: this.entries.size, bytes: this.bytes };
  }
}
