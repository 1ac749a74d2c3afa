#!/usr/bin/python3
"""A python-caldav client driven line by line by test/caldav/clients.e2e.test.ts.

It reads one JSON command a line on stdin and answers one JSON line on stdout, so the test can
interleave REST checks between client steps without paying Python's start-up for each one.
Every answer carries `exchanges`: the raw HTTP exchanges the library made for that command
(method, URL, status, request and response bodies), so the test asserts on what the server
itself answered, not only on what the library hands back (it can expand recurrences on the
client side when a server does not).

Run with Debian's interpreter (/usr/bin/python3): python3-caldav is a Debian package.
"""
import json
import sys
import traceback
from datetime import datetime, timezone

import caldav
import requests
from caldav.davclient import DAVClient
from caldav.elements import dav

EXCHANGES = []
_request = requests.Session.request


def _recording_request(self, method, url, *args, **kwargs):
    """Every HTTP exchange, also those the library turns into an exception (a 403, a 412)."""
    response = _request(self, method, url, *args, **kwargs)
    body = kwargs.get("data") or b""
    EXCHANGES.append({
        "method": method,
        "url": str(url),
        "status": response.status_code,
        "requestBody": body.decode() if isinstance(body, bytes) else str(body),
        "responseBody": response.text,
    })
    return response


requests.Session.request = _recording_request

STATE = {}


def when(text):
    """An ISO instant ('2026-03-02T00:00:00Z') as an aware datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


def client():
    return STATE["client"]


def calendar(url):
    return caldav.Calendar(client=client(), url=url)


def describe(obj, with_data=True):
    out = {"url": str(obj.url)}
    if with_data:
        out["data"] = obj.data
    etag = obj.props.get(dav.GetEtag.tag) if getattr(obj, "props", None) else None
    if etag:
        out["etag"] = etag
    return out


def op_connect(cmd):
    STATE["client"] = DAVClient(url=cmd["url"], username=cmd["username"], password=cmd["password"],
                                timeout=10)
    return {}


def op_discover(cmd):
    principal = client().principal()
    cals = []
    for cal in principal.calendars():
        cals.append({
            "url": str(cal.url),
            "name": cal.get_display_name(),
            "components": cal.get_supported_components(),
        })
    return {
        "principal": str(principal.url),
        "home": str(principal.calendar_home_set.url),
        "calendars": cals,
    }


def op_make_calendar(cmd):
    principal = client().principal()
    cal = principal.make_calendar(name=cmd["name"], cal_id=cmd["id"],
                                  supported_calendar_component_set=cmd.get("components"))
    return {"url": str(cal.url)}


def op_save(cmd):
    cal = calendar(cmd["calendar"])
    if cmd.get("todo"):
        obj = cal.save_todo(cmd["ics"])
    else:
        obj = cal.save_event(cmd["ics"])
    return {"url": str(obj.url)}


def op_search(cmd):
    cal = calendar(cmd["calendar"])
    kwargs = {"start": when(cmd["start"]), "end": when(cmd["end"])}
    if cmd.get("expand"):
        kwargs["expand"] = True
    found = cal.search(event=True, **kwargs)
    return {"objects": [describe(o) for o in found]}


def op_by_uid(cmd):
    cal = calendar(cmd["calendar"])
    obj = cal.event_by_uid(cmd["uid"]) if not cmd.get("todo") else cal.todo_by_uid(cmd["uid"])
    return describe(obj)


def op_edit(cmd):
    """Loads an object, changes its first VEVENT/VTODO as told, and saves it back (PUT)."""
    cal = calendar(cmd["calendar"])
    obj = cal.event_by_url(cmd["url"])
    obj.load()
    ical = obj.icalendar_instance
    comp = next(c for c in ical.walk() if c.name in ("VEVENT", "VTODO") and "RECURRENCE-ID" not in c)
    if "summary" in cmd:
        comp["SUMMARY"] = cmd["summary"]
    if "exdate" in cmd:
        # The DTSTART's own zone and form: a client adds an EXDATE like its DTSTART.
        start = comp.decoded("DTSTART")
        ex = when(cmd["exdate"]).astimezone(start.tzinfo) if hasattr(start, "tzinfo") else when(cmd["exdate"])
        comp.add("EXDATE", ex)
    obj.icalendar_instance = ical
    obj.save()
    return {"url": str(obj.url), "data": obj.data}


def op_delete(cmd):
    cal = calendar(cmd["calendar"])
    obj = cal.event_by_url(cmd["url"])
    obj.delete()
    return {}


def op_todos(cmd):
    cal = calendar(cmd["calendar"])
    todos = cal.todos(include_completed=bool(cmd.get("includeCompleted")))
    return {"objects": [describe(t) for t in todos]}


def op_complete(cmd):
    cal = calendar(cmd["calendar"])
    todo = cal.todo_by_uid(cmd["uid"])
    todo.complete(completion_timestamp=when(cmd["at"]) if cmd.get("at") else None)
    return {"url": str(todo.url), "data": todo.data}


def op_ha_todo(cmd):
    """What Home Assistant's CalDAV to-do entity does (homeassistant/components/caldav/todo.py):
    `save_todo(**fields)` to add, `search(todo=True, include_completed=True)` to list,
    `todo_by_uid` + change the component + `save()` to update, `todo_by_uid` + `delete()`."""
    cal = calendar(cmd["calendar"])
    action = cmd["action"]
    if action == "add":
        fields = {"summary": cmd["summary"], "status": "NEEDS-ACTION"}
        if cmd.get("due"):
            fields["due"] = datetime.fromisoformat(cmd["due"]).date()
        if cmd.get("description"):
            fields["description"] = cmd["description"]
        todo = cal.save_todo(**fields)
        return {"url": str(todo.url), "uid": str(todo.icalendar_component["UID"])}
    if action == "list":
        items = cal.search(todo=True, include_completed=True)
        out = []
        for t in items:
            c = t.icalendar_component
            out.append({"url": str(t.url), "uid": str(c.get("UID")), "summary": str(c.get("SUMMARY")),
                        "status": str(c.get("STATUS", "")),
                        "due": str(c.decoded("DUE")) if "DUE" in c else None})
        return {"items": out}
    todo = cal.todo_by_uid(cmd["uid"])
    if action == "update":
        c = todo.icalendar_component
        if "summary" in cmd:
            c["SUMMARY"] = cmd["summary"]
        if "status" in cmd:
            c["STATUS"] = cmd["status"]
            if cmd["status"] == "COMPLETED":
                c["COMPLETED"] = when(cmd["at"]) if cmd.get("at") else datetime.now(timezone.utc)
            elif "COMPLETED" in c:
                del c["COMPLETED"]
        todo.save()
        return {"url": str(todo.url)}
    if action == "delete":
        todo.delete()
        return {}
    raise ValueError(f"unknown action {action}")


def op_sync(cmd):
    """A sync-collection REPORT from the token given (none: the initial sync)."""
    cal = calendar(cmd["calendar"])
    coll = cal.objects_by_sync_token(sync_token=cmd.get("token"), load_objects=True)
    objects = []
    for o in coll:
        objects.append({"url": str(o.url), "data": o.data,
                        "etag": o.props.get(dav.GetEtag.tag) if o.props else None})
    return {"token": coll.sync_token, "objects": objects}


def op_stale_sync(cmd):
    """The same REPORT with a token the server never gave: the library's own error and the raw answer."""
    cal = calendar(cmd["calendar"])
    try:
        cal.objects_by_sync_token(sync_token=cmd["token"], load_objects=False)
        return {"raised": None}
    except Exception as e:  # the library's error class is what a client sees
        return {"raised": type(e).__name__}


OPS = {name[3:]: fn for name, fn in globals().items() if name.startswith("op_")}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        cmd = json.loads(line)
        EXCHANGES.clear()
        try:
            result = OPS[cmd["op"]](cmd)
            answer = {"ok": True, **result}
        except Exception as e:
            answer = {"ok": False, "error": f"{type(e).__name__}: {e}",
                      "trace": traceback.format_exc(limit=4)}
        answer["exchanges"] = list(EXCHANGES)
        sys.stdout.write(json.dumps(answer, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
