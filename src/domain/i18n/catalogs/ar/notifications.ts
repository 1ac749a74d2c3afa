/** The `notifications` section of the ar catalog, translated from `../en/notifications.ts`. */
import type { Catalog } from '../en.js';

export const notifications: Catalog['notifications'] = {
  leaveByAt: 'الانطلاق الساعة {time}',
  going: 'من سيذهب: {names}',
  responsible: 'المسؤولية على: {names}',
  leaveNowTitle: 'حان وقت الانطلاق إلى {title}',
  leaveNowBody: 'من {origin} · الوصول قبل {time}',
  coverageTitle: 'لا أحد مسؤول عن {title}',
  deletedEvent: 'موعد محذوف',
  briefingTitle: 'ملخص الصباح',
  digestTitle: 'الملخص',
  reminderTitle: 'تذكير',
  dayHeading: '{day} ({date}):',
  nothingPlanned: 'لا شيء مخطط له',
  allDay: 'طوال اليوم',
  goingLower: 'من سيذهب: {names}',
  choresDue: 'المهام المستحقة: {chores}',
  choresNone: 'المهام المستحقة: لا شيء',
  overdueSince: 'متأخرة منذ {date}',
  weather: 'الطقس في {place}: {forecast}',
  weatherUnavailable: 'الطقس في {place}: لا توجد توقعات حاليًا',
  temperatureRange: 'من {low} إلى {high}',
  rainChance: 'احتمال المطر {percent}',
  condition:
    '{condition, select, clear {سماء صافية} mainlyClear {صافٍ غالبًا} partlyCloudy {غائم جزئيًا} overcast {غائم} fog {ضباب} drizzle {رذاذ} freezingRain {مطر متجمد} lightRain {مطر خفيف} rain {مطر} heavyRain {مطر غزير} snow {ثلج} heavySnow {ثلج كثيف} showers {زخات مطر} snowShowers {زخات ثلج} thunderstorm {عاصفة رعدية} hail {عاصفة رعدية مع برد} other {متقلب}}',
  intakeTitle: 'جديد في {feed}: {titles}',
  intakeOne: '{title} في تقويم {feed}.',
  intakeMany:
    '{count, plural, zero {لا مواعيد في تقويم {feed} تطابق} one {موعد واحد في تقويم {feed} يطابق} two {موعدان في تقويم {feed} يطابقان} few {# مواعيد في تقويم {feed} تطابق} many {# موعدًا في تقويم {feed} يطابق} other {# موعد في تقويم {feed} يطابق}} ما طلبتم متابعته.',
  webhookOffTitle: 'تم إيقاف الويب هوك «{name}»',
  webhookFailing:
    'فشل كل إرسال إلى {host} منذ 5 أيام، لذلك لن يتلقى أحداثًا بعد الآن. أصلحوا المستقبِل ثم فعّلوا الوجهة من جديد.',
  webhookGone:
    'ردّ {host} بالرمز 410 Gone، لذلك لن يتلقى أحداثًا بعد الآن. فعّلوا الوجهة من جديد إن كان ذلك خطأ.',
  choreWhoWhen: '{name}، {when}',
};
