/**
 * An object's response whose calendar-data is shaped by the request (RFC 4791 §9.6): a to-do
 * expanded into its instances, an event expanded and then narrowed to the selected parts, the
 * changed occurrences limited to a range (limit-recurrence-set), or only the components and
 * properties `comp` names. Expanded instances count against the answer's occurrence limit, and
 * the text against its byte limit, as an expanded event's do (answer.ts).
 */
import type { EventRecord } from '../domain/calendar/types.js';
import { ANSWER_LIMITS, tooMuch, type Answer } from './answer.js';
import { expandedParts } from './expand.js';
import { treeOf } from './filters.js';
import type { DavCollection, DavObject } from './objects.js';
import { occurrencesOf, type Range } from './occurrences.js';
import { responseAroundData, type PropContext } from './props.js';
import { limitRecurrenceSet, selectParts, type DataRequest } from './selection.js';
import { expandedTodo } from './todoExpand.js';
import { escapeXml, type QName } from './xml.js';

export interface ShapeContext {
  col: DavCollection;
  x: PropContext;
  /** The family's zone. */
  tz: string;
}

/** An event's occurrences in `r` as one text (for a selection to narrow), within the limits. */
async function expandedEventText(
  obj: DavObject,
  c: ShapeContext,
  answer: Answer,
  r: Range,
): Promise<string> {
  const ev = obj.entry as EventRecord;
  const parts: string[] = [];
  let bytes = 0;
  for (const part of expandedParts(c.tz, obj.uid, ev, occurrencesOf(ev, r, c.tz), () =>
    answer.countOccurrences(1),
  )) {
    bytes += Buffer.byteLength(part);
    if (answer.bytes + bytes > ANSWER_LIMITS.bytes)
      throw tooMuch(`${ANSWER_LIMITS.bytes / 1024 / 1024} MiB`);
    parts.push(part);
    await answer.pause();
  }
  return parts.join('');
}

/** The calendar-data text the request asks for. */
async function shapedText(
  obj: DavObject,
  c: ShapeContext,
  answer: Answer,
  data: DataRequest,
): Promise<string> {
  const now = c.x.req.services.now();
  let text = obj.ics;
  if (data.expand)
    text =
      c.col.component === 'VEVENT'
        ? await expandedEventText(obj, c, answer, data.expand)
        : expandedTodo(treeOf(obj), c.tz, now, data.expand, () => answer.countOccurrences(1));
  else if (data.limitRecurrence) text = limitRecurrenceSet(text, data.limitRecurrence, c.tz, now);
  return data.comp ? selectParts(text, data.comp) : text;
}

/** Adds the object's response with its shaped calendar-data to the answer. */
export async function addShaped(
  obj: DavObject,
  c: ShapeContext,
  props: QName[],
  answer: Answer,
  data: DataRequest,
): Promise<void> {
  const text = await shapedText(obj, c, answer, data);
  const { head, tail } = responseAroundData(
    { type: 'object', col: c.col, obj },
    props,
    c.x,
    Buffer.byteLength(text),
  );
  answer.add(head);
  answer.add(escapeXml(text));
  answer.add(tail);
}
