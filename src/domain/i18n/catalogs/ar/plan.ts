/** The `plan` section of the ar catalog, translated from `../en/plan.ts`. */
import type { Catalog } from '../en.js';

export const plan: Catalog['plan'] = {
  phase:
    '{phase, select, unscheduled {بلا موعد} upcoming {قادم} happening {يجري الآن} other {انتهى}}',
  timesIn: 'الأوقات بتوقيت {zone}',
  schedule: 'البرنامج',
  busy: 'مشغول',
  where: 'المكان: {place}',
  addToCalendar: 'أضف إلى تقويمي',
  polls: 'الاستطلاعات',
  decided: 'تقرّر',
  votes:
    '{count, plural, zero {لا أصوات} one {صوت واحد} two {صوتان} few {# أصوات} many {# صوتًا} other {# صوت}}',
  chosen: 'مختار',
  notes: 'ملاحظات',
  footer: 'تمت المشاركة من Household Organizer. تعرض هذه الصفحة الخطة كما هي الآن.',
  notFoundTitle: 'غير موجود',
  notFoundHeading: 'لا شيء هنا',
  notFoundText: 'هذه الخطة غير مُشاركة (أو لم تعد كذلك)، أو أن العنوان مكتوب خطأً.',
  notScheduled: 'بلا موعد',
  range: '{from} – {to}',
  dayTime: '{day}، {time}',
};
