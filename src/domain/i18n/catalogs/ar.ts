/** The Arabic catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';

export const AR: Catalog = {
  // ── common ──────────────────────────────────────────────────────────────────────────────
  common: {
    dayAt: '{day} {time}',
    dayAllDay: '{day}، طوال اليوم',
  },

  // ── notifications ───────────────────────────────────────────────────────────────────────
  notifications: {},

  // ── pages ───────────────────────────────────────────────────────────────────────────────
  pages: {},

  // ── plan ────────────────────────────────────────────────────────────────────────────────
  plan: {},

  // ── display ─────────────────────────────────────────────────────────────────────────────
  display: {
    title: '{family} · {name}',
    clockLabel: 'الوقت',
    statusLive: 'مباشر',
    statusLiveWaiting: 'مباشر · لم يُرسَل بعد: {count}',
    statusOffline: 'غير متصل منذ {time} · جارٍ إعادة الاتصال',
    statusOfflineWaiting: 'غير متصل منذ {time} · جارٍ إعادة الاتصال · لم يُرسَل بعد: {count}',
    statusGone: 'أُوقف رابط الشاشة هذا',
    ok: 'حسنًا',
    undo: 'تراجع',
    notFoundTitle: 'غير موجود',
    notFoundHeading: 'لا شيء هنا',
    notFoundText: 'أُوقف رابط الشاشة هذا، أو أن العنوان مكتوب خطأ.',
    separator: ' · ',
    listSeparator: '، ',
    today: 'اليوم',
    tomorrow: 'غدًا',
    todayInline: 'اليوم',
    labelToday: 'اليوم · {date}',
    labelTomorrow: 'غدًا · {date}',
    allDay: 'طوال اليوم',
    timeRange: '{start}–{end}',
    going: 'الحضور: {names}',
    whoIsGoing: 'من سيحضر؟',
    whoIsGoingTo: 'من سيحضر {title}',
    until: 'حتى {day}',
    leaveBy: 'المغادرة في {time}',
    waiting: 'بانتظار الإرسال',
    answerGoing: '✓ {name}',
    answerOut: '✗ {name}',
    answerMaybe: '؟ {name}',
    weatherPlace: '{place}: {weather}',
    weatherRangeC: '{min}–{max} °C',
    weatherRangeF: '{min}–{max} °F',
    weatherRain: 'احتمال المطر {percent}٪',
    nothingPlanned: 'لا شيء مخطط له',
    doneMark: '✓ {title}',
    chores: 'الأعمال المنزلية',
    noChores: 'لا أعمال منزلية مستحقة',
    due: 'موعدها {day}',
    overdueSince: 'متأخرة منذ {day}',
    addTo: 'أضف إلى {list}',
    add: 'إضافة',
    emptyList: 'لا شيء في القائمة',
    polls: 'التصويتات',
    whoIsVoting: 'من يصوّت؟',
    whoIsVotingOn: 'من يصوّت على {question}',
    noVotes: 'لا أصوات بعد',
    now: 'الآن: {title} حتى {time}',
    next: 'التالي: {time} {title}',
    nextOnDay: 'التالي: {day} {time} {title}',
    nothingMore: 'لا شيء آخر مخطط له',
    tickedOff: 'تم: «{title}»',
    backOn: 'أُعيد: «{title}»',
    addedTo: 'أُضيف إلى {list}: «{title}»',
    undoOf: 'تراجع: {label}',
    isGoingTo: 'حضور {name}: {title}',
    isNotGoingTo: 'عدم حضور {name}: {title}',
    chooseVoter: 'اختر أولًا من يصوّت، ثم الخيار',
    tookBackVote: 'سُحب صوت {name}',
    votedFor: 'صوت {name}: {option}',
    notDone: 'لم يتم — {label}: {error}',
    answered: 'ردّ الخادم بالرمز {status}',
    nothingToUndo: 'لا شيء للتراجع عنه — {label}: ما كان سيُلغى لم يتم',
  },

  // ── names ───────────────────────────────────────────────────────────────────────────────
  names: {},
};
