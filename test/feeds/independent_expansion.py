"""
A second opinion on what a window of an iCalendar feed contains, independent of our code:
Debian's python3-recurring-ical-events (with python3-x-wr-timezone, which it applies itself).

    python3 independent_expansion.py FILE FROM TO ZONE

prints a JSON list of the occurrences that start on a date in [FROM, TO] (inclusive, dates in
ZONE, the family's time zone), each as the daemon's listing shows it: title, local start date
and HH:mm time (null for all-day), local inclusive end date and HH:mm end time, and status.
Floating times are read in ZONE, as the daemon reads them when the feed names no X-WR-TIMEZONE.
Exit status 3 when the libraries are missing (the test then skips with that message).
"""
import datetime
import json
import sys

try:
    import icalendar
    import pytz
    import recurring_ical_events
except ImportError as e:  # pragma: no cover
    print(f"missing: {e}", file=sys.stderr)
    sys.exit(3)


def main():
    path, first, last, zone_name = sys.argv[1:5]
    zone = pytz.timezone(zone_name)
    start = datetime.date.fromisoformat(first)
    stop = datetime.date.fromisoformat(last)
    with open(path, 'rb') as f:
        calendar = icalendar.Calendar.from_ical(f.read())
    # Ask for a wider span and keep what starts inside the dates, so both sides cut the same way.
    events = recurring_ical_events.of(calendar).between(start - datetime.timedelta(days=3), stop + datetime.timedelta(days=3))
    out = []
    for ev in events:
        begin = ev['DTSTART'].dt
        end = ev['DTEND'].dt if 'DTEND' in ev else begin
        if isinstance(begin, datetime.datetime):
            begin = local(begin, zone)
            end = local(end, zone) if isinstance(end, datetime.datetime) else zone.localize(datetime.datetime(end.year, end.month, end.day))
            date, time = begin.date(), begin.strftime('%H:%M')
            end_date, end_time = end.date(), end.strftime('%H:%M')
        else:
            date, time, end_time = begin, None, None
            if isinstance(end, datetime.datetime):
                end = end.date()
            end_date = end - datetime.timedelta(days=1) if end > begin else begin
        if not (start <= date <= stop):
            continue
        out.append({
            'title': str(ev.get('SUMMARY', '')),
            'date': date.isoformat(), 'time': time,
            'endDate': end_date.isoformat(), 'endTime': end_time,
            'status': str(ev.get('STATUS', 'CONFIRMED')).upper(),
        })
    out.sort(key=lambda o: (o['date'], o['time'] or '', o['title']))
    json.dump(out, sys.stdout, ensure_ascii=False)


def local(dt, zone):
    if dt.tzinfo is None:
        return zone.localize(dt)
    return dt.astimezone(zone)


main()
