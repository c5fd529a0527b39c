"""AndroidLens-style tasks: long multi-goal, multi-constraint and domain-specific tasks, single-
and cross-app, on the apps taskkit models, with milestones judged from the device's state.

Tags: `androidlens`, the apps, `category:` one of AndroidLens' three categories (supplement
Sec. D: multi-goal, multi-constraint, domain-specific) and, for cross-app tasks, `interaction:`
one of its cross-app interaction types (Sec. C). `optimal_steps` is the GUI reference's action
count on the shortest draw; the step budget (10 × complexity) is about twice that, as
AndroidLens allows long horizons. See docs/families.md, "AndroidLens".
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from taskkit.apps import (audio_recorder, calendar, contacts, expense, markor, receipts, simple_gallery_pro, sms,
                          tasks_org, vlc)
from taskkit.apps.calculator import formula as calc
from taskkit.apps.androidlens import emergency, steps as st
from taskkit.apps.androidlens.goals import object_schema as _schema
from taskkit.apps.androidlens.goals import (Goal, LensTask, alarm_set, contact_saved, event_row, event_saved,
                                            expense_logged, note_written, sms_sent)
from taskkit.apps.calendar.tasks import SimpleCalendarAddOneEvent
from taskkit.apps.clock import alarms
from taskkit.apps.common import epoch, format_amount, format_time, random_phone_number, to_datetime
from taskkit.apps.contacts.tasks import ContactsAddContact
from taskkit.apps.files import DOWNLOAD_DIR
from taskkit.apps.sms.tasks import ADDRESSES as SMS_ADDRESSES, SimpleSmsSend
from taskkit.composite import compose
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, back, open_app, resource_id, tap, type_text
from taskkit.validators import app_in_foreground, file_exists, folder_exists, setting_equals
from taskkit.rng import TaskRng

_SEED = {"type": "integer", "minimum": 0}
_OCT = (calendar.YEAR, calendar.MONTH)


def _distinct(draw: Callable[[], Any], count: int, keys: Callable[[Any], tuple] = lambda v: (v,)) -> list[Any]:
    """`count` values from `draw` no two of which share any of their `keys`."""
    found: list[Any] = []
    while len(found) < count:
        value = draw()
        if not any(a == b for other in found for a, b in zip(keys(value), keys(other))):
            found.append(value)
    return found


def _people(rng: TaskRng, count: int) -> list[dict[str, str]]:
    """`count` contacts with distinct names and numbers."""
    return _distinct(lambda: contacts.random_contact(rng), count, lambda p: (p["name"], p["number"]))


_PERSON = _schema(name={"type": "string"}, number={"type": "string"})
_ITEM = _schema(name={"type": "string"}, amount={"type": "integer"}, category={"type": "integer"},
                category_name={"type": "string"}, note={"type": "string"})  # an expense as the goal names it
_PEOPLE = {"type": "array", "items": _PERSON}


def _seed_contacts(env: TaskEnv, people: Sequence[dict[str, str]]) -> None:
    for person in people:
        contacts.add_contact(env.device, person["name"], person["number"])


class _Lens(LensTask):
    """Base of the tasks here: each gives `reference_steps`, its GUI reference before `finish`."""

    abstract = True

    def reference_steps(self) -> list[Step]:
        raise NotImplementedError

    def gui_reference(self) -> list[Step]:
        return st.finish(self.reference_steps())


# === single-app ================================================================================
class AndroidLensCalendarMeetingSeries(_Lens):
    """AndroidLens' batch-operation example (three meetings, two with repeat rules), in Simple
    Calendar Pro: one milestone per meeting, any order, each kept to the end."""

    app_names = ("simple calendar pro",)
    complexity = 10
    difficulty, optimal_steps = "hard", 46
    tags = ("androidlens", "calendar", "category:domain-specific", "subcategory:batch")
    template = ("In Simple Calendar Pro, schedule three meetings: '{{ meetings[0].title }}' on "
                "{{ meetings[0].start | date }} at {{ meetings[0].start | time }} for 30 minutes, repeating daily; "
                "'{{ meetings[1].title }}' on {{ meetings[1].start | date }} at {{ meetings[1].start | time }} for "
                "30 minutes, repeating weekly; and '{{ meetings[2].title }}' on {{ meetings[2].start | date }} at "
                "{{ meetings[2].start | time }} for 1 hour, not repeating. Give each the description "
                "'{{ description }}'.")
    _MEETING = _schema(title={"type": "string"}, start={"type": "integer"}, minutes={"type": "integer"},
                       repeat={"type": "integer"})
    schema = _schema(meetings={"type": "array", "items": _MEETING, "minItems": 3, "maxItems": 3},
                     description={"type": "string"}, noise_seed=_SEED)
    _SHAPES = (("Stand-up meeting", 30, calendar.REPEAT_DAILY), ("Weekly sync", 30, calendar.REPEAT_WEEKLY),
               ("{project} mid-year review", 60, 0))

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        project = rng.choice(("Apollo", "Phoenix", "Atlas", "Horizon", "Nimbus", "Orion"))
        days = rng.sample(range(16, 24), 3)
        meetings = [{"title": title.format(project=project), "start": epoch(*_OCT, day, rng.randint(8, 18),
                                                                            rng.choice((0, 30))),
                     "minutes": minutes, "repeat": repeat} for (title, minutes, repeat), day in zip(cls._SHAPES, days)]
        return {"meetings": meetings, "description": f"Project {project}", "noise_seed": rng.getrandbits(32)}

    def _rows(self) -> list[dict[str, Any]]:
        return [event_row(m["title"], self.params["description"], m["start"], m["minutes"], m["repeat"])
                for m in self.params["meetings"]]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        calendar.EVENTS.insert(env.device, calendar.noise_events(rng, 8, exclude=lambda e: "meeting" in e["title"]))
        calendar.APP.force_stop(env.device)

    def goal_groups(self):
        names = ("daily", "weekly", "one_off")
        return [(False, [event_saved(name, row) for name, row in zip(names, self._rows())])]

    def reference_steps(self) -> list[Step]:
        labels = {calendar.REPEAT_DAILY: "Daily", calendar.REPEAT_WEEKLY: "Weekly", 0: ""}
        steps = [open_app("simple calendar pro")]
        for row in self._rows():
            steps += st.new_event_steps(row["title"], row["description"], row["start_ts"], row["end_ts"],
                                        labels[row["repeat_interval"]])
        return steps


class AndroidLensClockAlarmSchedule(_Lens):
    """Three alarms with repeat constraints (operation-level constraints): weekdays, the weekend,
    once. Each must still be on at the end."""

    app_names = ("clock",)
    complexity = 4.5
    difficulty, optimal_steps = "medium", 21
    tags = ("androidlens", "clock", "alarm", "category:multi-constraint", "subcategory:operation-level")
    template = ("In Clock, set three alarms: {{ times[0] }} every weekday (Monday to Friday), {{ times[1] }} on "
                "Saturdays and Sundays only, and a one-time alarm at {{ times[2] }}.")
    schema = _schema(hours={"type": "array", "items": {"type": "integer"}},
                     minutes={"type": "array", "items": {"type": "integer"}},
                     times={"type": "array", "items": {"type": "string"}})
    _BITS = (alarms.WEEKDAYS, alarms.WEEKEND, 0)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        hours = rng.sample([h for h in range(5, 23) if h not in (8, 9)], 3)  # not the two default alarms' hours
        minutes = [rng.choice(range(0, 60, 5)) for _ in hours]
        return {"hours": hours, "minutes": minutes, "times": [f"{h:02d}:{m:02d}" for h, m in zip(hours, minutes)]}

    def _alarms(self) -> list[tuple[int, int, int]]:
        return list(zip(self.params["hours"], self.params["minutes"], self._BITS))

    def goal_groups(self):
        names = ("weekdays", "weekend", "once")
        return [(False, [alarm_set(name, h, m, bits) for name, (h, m, bits) in zip(names, self._alarms())])]

    def reference_steps(self) -> list[Step]:
        steps = [open_app("clock"), tap("Alarm")]
        for hour, minutes, bits in self._alarms():
            chips = [slot for slot, day in enumerate(alarms.CHIP_ORDER) if bits & alarms.day_bit(day)]
            steps += [*st.alarm_steps(hour, minutes), *[tap(resource_id(f"day_button_{slot}")) for slot in chips]]
        return steps


class AndroidLensSmsRoundup(_Lens):
    """Three unrelated messages in one app (single-app unrelated goals): a reply, a new number,
    and an address forwarded from one contact to another."""

    app_names = ("simple sms messenger", "contacts")
    complexity = 4
    difficulty, optimal_steps = "medium", 18
    tags = ("androidlens", "sms", "category:multi-goal", "subcategory:single-app-unrelated")
    template = ("In Simple SMS Messenger: reply '{{ reply }}' to {{ people[0].name }}; text {{ number }} "
                "'{{ message }}'; and send {{ people[2].name }} the address {{ people[1].name }} just texted me.")
    schema = _schema(people=_PEOPLE, reply={"type": "string"}, number={"type": "string"}, message={"type": "string"},
                     address={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        reply = rng.choice(("Sure, 7 works for me.", "On my way!", "Yes, I'll bring it."))
        return {"people": _people(rng, 3), "reply": reply,
                "number": random_phone_number(rng), "message": sms.random_message(rng),
                "address": rng.choice(SMS_ADDRESSES)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)
        people = self.params["people"]
        _seed_contacts(env, people)
        now = env.device.clock.now_ms()
        sms.receive(env.device, people[0]["number"], "Can you make it tonight?", date_ms=now - 1_200_000)
        sms.receive(env.device, people[1]["number"], self.params["address"], date_ms=now - 600_000)

    def goal_groups(self):
        people = self.params["people"]
        return [(False, [sms_sent("reply", people[0]["number"], self.params["reply"]),
                         sms_sent("new_number", self.params["number"], self.params["message"]),
                         sms_sent("forward", people[2]["number"], self.params["address"])])]

    def reference_steps(self) -> list[Step]:
        people = self.params["people"]
        return [open_app("simple sms messenger"), tap(people[0]["name"]), *st.reply_steps(self.params["reply"]),
                *st.sms_steps(self.params["number"], self.params["message"]), tap(people[1]["name"]), back(),
                *st.sms_steps(people[2]["name"], self.params["address"], contact=True)]


class AndroidLensContactsBatchAdd(_Lens):
    """Save four people as contacts (a batch operation): one milestone per contact."""

    app_names = ("contacts",)
    complexity = 5
    difficulty, optimal_steps = "medium", 24
    tags = ("androidlens", "contacts", "category:domain-specific", "subcategory:batch")
    template = ("Add these people to Contacts: {% for p in people %}{{ p.name }} ({{ p.number }})"
                "{{ ', ' if not loop.last else '.' }}{% endfor %}")
    schema = _schema(people=_PEOPLE)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"people": _people(rng, 4)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)

    def goal_groups(self):
        return [(False, [contact_saved(f"contact_{i + 1}", p["name"], p["number"])
                         for i, p in enumerate(self.params["people"])])]

    def reference_steps(self) -> list[Step]:
        return [open_app("contacts"), *[s for p in self.params["people"] for s in st.contact_steps(p["name"], p["number"])]]


class AndroidLensMarkorMeetingFolder(_Lens):
    """A folder, then two notes inside it (single-app related goals): ordered, since the notes
    need the folder."""

    app_names = ("markor",)
    complexity = 3
    difficulty, optimal_steps = "medium", 15
    tags = ("androidlens", "markor", "category:multi-goal", "subcategory:single-app-related")
    template = ("In Markor, create a folder {{ folder }}; in it, create a note agenda.md with the text "
                "'{{ agenda }}' and a note minutes.md with the text '{{ minutes }}'.")
    schema = _schema(folder={"type": "string"}, agenda={"type": "string"}, minutes={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        topic = rng.choice(("budget", "roadmap", "hiring", "launch", "offsite"))
        return {"folder": f"Meeting_{topic}_{rng.randint(1, 28):02d}", "agenda": f"1. Review the {topic}. 2. Next steps.",
                "minutes": f"Agreed on the {topic}; {rng.faker.first_name()} follows up."}

    def goal_groups(self):
        folder = self.params["folder"]
        made = Goal("folder", folder_exists(markor.note_path(folder)),
                    lambda env: env.device.files.mkdir(markor.note_path(folder)), must_hold=True)
        return [(True, [made, note_written("agenda", "agenda.md", self.params["agenda"], folder),
                        note_written("minutes", "minutes.md", self.params["minutes"], folder)])]

    def reference_steps(self) -> list[Step]:
        folder = self.params["folder"]
        return [open_app("markor"), tap("fab_add_new_item"), type_text("new_file_dialog__name", folder), tap("Folder"),
                tap(folder), *st.new_note("agenda.md", self.params["agenda"]),
                *st.new_note("minutes.md", self.params["minutes"])]


class AndroidLensExpenseBatchLog(_Lens):
    """Three expenses, each with a name, amount, category and note (operation-level constraints:
    a wrong category or note misses the milestone)."""

    app_names = ("pro expense",)
    complexity = 4
    difficulty, optimal_steps = "medium", 19
    tags = ("androidlens", "expense", "category:multi-constraint", "subcategory:operation-level")
    template = ("In Pro Expense, log {% for e in items %}'{{ e.name }}' ({{ e.amount | money }}, category "
                "{{ e.category_name }}, note '{{ e.note }}'){{ '; ' if not loop.last else '.' }}{% endfor %}")
    schema = _schema(items={"type": "array", "items": _ITEM}, noise_seed=_SEED)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        rows = _distinct(lambda: expense.random_expense(rng), 3, lambda row: (row["name"],))
        items = [{k: row[k] for k in ("name", "amount", "category", "note")}
                 | {"category_name": expense.category_name(row["category"])} for row in rows]
        return {"items": items, "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        names = {i["name"] for i in self.params["items"]}
        noise = expense.noise_expenses(TaskRng(self.params["noise_seed"]), 5, exclude=lambda row: row["name"] in names)
        expense.EXPENSES.insert(env.device, noise)
        expense.APP.force_stop(env.device)

    def goal_groups(self):
        return [(False, [expense_logged(f"expense_{i + 1}", item) for i, item in enumerate(self.params["items"])])]

    def reference_steps(self) -> list[Step]:
        return [open_app("pro expense"), *[s for item in self.params["items"] for s in st.expense_add_steps(item)]]


class AndroidLensCalendarTrainingPlan(_Lens):
    """Three weekly training sessions on set weekdays, times and lengths (operation-level
    constraints: the weekday, the time, the length and the weekly repetition all count)."""

    app_names = ("simple calendar pro",)
    complexity = 11
    difficulty, optimal_steps = "hard", 45
    tags = ("androidlens", "calendar", "category:multi-constraint", "subcategory:operation-level")
    template = ("In Simple Calendar Pro, plan my training for the week of October 16 2023, each session repeating "
                "weekly with the description 'Training': {% for s in sessions %}'{{ s.title }}' on {{ s.start | date }} "
                "at {{ s.start | time }} for {{ s.minutes | duration }}{{ '; ' if not loop.last else '.' }}{% endfor %}")
    _SESSION = _schema(title={"type": "string"}, start={"type": "integer"}, minutes={"type": "integer"})
    schema = _schema(sessions={"type": "array", "items": _SESSION})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        days = sorted(rng.sample(range(16, 22), 3))
        titles = rng.sample(("Gym session", "Swimming", "Yoga class", "Long run", "Cycling", "Climbing"), 3)
        return {"sessions": [{"title": t, "start": epoch(*_OCT, d, rng.randint(6, 19), rng.choice((0, 30))),
                              "minutes": rng.choice((45, 60, 90))} for t, d in zip(titles, days)]}

    def _rows(self) -> list[dict[str, Any]]:
        return [event_row(s["title"], "Training", s["start"], s["minutes"], calendar.REPEAT_WEEKLY)
                for s in self.params["sessions"]]

    def goal_groups(self):
        return [(False, [event_saved(f"session_{i + 1}", row) for i, row in enumerate(self._rows())])]

    def reference_steps(self) -> list[Step]:
        steps = [open_app("simple calendar pro")]
        for row in self._rows():
            steps += st.new_event_steps(row["title"], row["description"], row["start_ts"], row["end_ts"], "Weekly")
        return steps


# === cross-app =================================================================================
class AndroidLensContactsThenMessage(_Lens):
    """Save two people as contacts and text each a welcome: for each person, the contact first,
    then the message (an ordered pair per person)."""

    app_names = ("contacts", "simple sms messenger")
    complexity = 5.5
    difficulty, optimal_steps = "medium", 25
    tags = ("androidlens", "contacts", "sms", "category:multi-goal", "subcategory:cross-app-related", "interaction:multi-round")
    template = ("Save {{ people[0].name }} ({{ people[0].number }}) and {{ people[1].name }} ({{ people[1].number }}) "
                "as new contacts. Then text each of them, by name, in Simple SMS Messenger: '{{ message }}'")
    schema = _schema(people=_PEOPLE, message={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        team = rng.choice(("book club", "running group", "choir", "project team", "volunteer crew"))
        return {"people": _people(rng, 2), "message": f"Welcome to the {team}! Saved your number."}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)

    def goal_groups(self):
        return [(True, [contact_saved(f"contact_{i + 1}", p["name"], p["number"]),
                        sms_sent(f"sms_{i + 1}", p["number"], self.params["message"])])
                for i, p in enumerate(self.params["people"])]

    def reference_steps(self) -> list[Step]:
        steps = [open_app("contacts")]
        for p in self.params["people"]:
            steps += st.contact_steps(p["name"], p["number"])
        steps.append(open_app("simple sms messenger"))
        for p in self.params["people"]:
            steps += st.sms_steps(p["name"], self.params["message"], contact=True)
        return steps


class AndroidLensNoteCodeToSms(_Lens):
    """Copy a Markor note's text (a guest Wi-Fi code) and paste it into texts to three contacts."""

    app_names = ("markor", "simple sms messenger", "contacts")
    complexity = 6
    difficulty, optimal_steps = "medium", 27
    tags = ("androidlens", "markor", "sms", "category:multi-goal", "subcategory:cross-app-related", "interaction:clipboard")
    template = ("Copy the text of the Markor note {{ file_name }} and paste it, unchanged, into a text message to "
                "each of my contacts {{ people[0].name }}, {{ people[1].name }} and {{ people[2].name }} in "
                "Simple SMS Messenger.")
    schema = _schema(file_name={"type": "string"}, code={"type": "string"}, people=_PEOPLE)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
        return {"file_name": f"guest_wifi_{rng.choice(('home', 'cabin', 'office', 'studio'))}.txt",
                "code": f"Guest Wi-Fi password: {code[:4]}-{code[4:]}", "people": _people(rng, 3)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)
        _seed_contacts(env, self.params["people"])
        markor.create_note(env.device, self.params["file_name"], self.params["code"])

    def goal_groups(self):
        return [(False, [sms_sent(f"sms_{i + 1}", p["number"], self.params["code"])
                         for i, p in enumerate(self.params["people"])])]

    def reference_steps(self) -> list[Step]:
        steps = [*st.copy_note_steps(self.params["file_name"]), open_app("simple sms messenger")]
        for p in self.params["people"]:
            steps += st.paste_sms_steps(p["name"], contact=True)
        return steps


class AndroidLensSmsInviteToCalendar(_Lens):
    """An SMS invitation → a reply, a calendar event and an alarm an hour before it (AndroidLens'
    SMS-plus-calendar-reminder example): the event before its alarm (ordered), the reply apart."""

    app_names = ("simple sms messenger", "simple calendar pro", "clock", "contacts")
    complexity = 5.5
    difficulty, optimal_steps = "hard", 26
    tags = ("androidlens", "sms", "calendar", "clock", "category:multi-goal", "subcategory:cross-app-related", "interaction:multi-round")
    template = ("{{ friend.name }} just invited me by text message. Reply to {{ friend.name }} in Simple SMS "
                "Messenger with '{{ reply }}', add the dinner to Simple Calendar Pro titled 'Dinner with "
                "{{ friend.name }}' with the description '{{ place }}', lasting 2 hours, and set an alarm in Clock "
                "one hour before it starts.")
    schema = _schema(friend=_PERSON, place={"type": "string"}, start={"type": "integer"}, reply={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        start = epoch(*_OCT, rng.randint(16, 28), rng.randint(18, 21), rng.choice((0, 30)))
        return {"friend": _people(rng, 1)[0], "place": f"{rng.faker.last_name()}'s Bistro",
                "start": start, "reply": rng.choice(("Yes, see you then!", "Count me in!", "Sounds great, I'll be there."))}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)
        friend = self.params["friend"]
        _seed_contacts(env, [friend])
        when = to_datetime(self.params["start"])
        sms.receive(env.device, friend["number"], f"Dinner at {self.params['place']} on {when:%B} {when.day} "
                                                  f"at {format_time(self.params['start'])}? My treat!")

    def _event(self) -> dict[str, Any]:
        return event_row(f"Dinner with {self.params['friend']['name']}", self.params["place"], self.params["start"], 120)

    def goal_groups(self):
        alarm = to_datetime(self.params["start"] - 3600)
        friend = self.params["friend"]
        return [(False, [sms_sent("reply", friend["number"], self.params["reply"])]),
                (True, [event_saved("event", self._event()), alarm_set("alarm", alarm.hour, alarm.minute)])]

    def reference_steps(self) -> list[Step]:
        friend, event = self.params["friend"], self._event()
        alarm = to_datetime(self.params["start"] - 3600)
        return [open_app("simple sms messenger"), tap(friend["name"]),
                *st.reply_steps(self.params["reply"]),
                open_app("simple calendar pro"),
                *st.new_event_steps(event["title"], event["description"], event["start_ts"], event["end_ts"]),
                open_app("clock"), tap("Alarm"), *st.alarm_steps(alarm.hour, alarm.minute)]


class AndroidLensExpenseTotalBySms(_Lens):
    """Log one more trip expense, then text the trip's new total and keep it in a note: the
    total counts only once the expense is in (ordered: expense, text, note)."""

    app_names = ("pro expense", "simple sms messenger", "markor")
    complexity = 4
    difficulty, optimal_steps = "hard", 20
    tags = ("androidlens", "expense", "sms", "markor", "category:multi-goal", "subcategory:cross-app-related", "interaction:aggregation")
    template = ("In Pro Expense, log '{{ item.name }}': {{ item.amount | money }}, category {{ item.category_name }}, "
                "note '{{ item.note }}'. Then add up all my expenses whose name starts with 'Trip:' (this one "
                "included), text '{{ prefix }} $X' (X the total, like $12.34) to {{ number }} in Simple SMS "
                "Messenger, and save the same line as the Markor note {{ file_name }}.")
    schema = _schema(trip={"type": "array", "items": _ITEM}, item=_ITEM, number={"type": "string"},
                     prefix={"type": "string"}, file_name={"type": "string"}, noise_seed=_SEED)
    _SPOTS = (("Trip: Hotel night", 4), ("Trip: Train tickets", 7), ("Trip: Museum entry", 6),
              ("Trip: Dinner by the harbour", 3), ("Trip: Souvenirs", 1), ("Trip: Rental bike", 7))

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        spots = rng.sample(cls._SPOTS, 4)

        def item(name: str, category: int, note: str) -> dict[str, Any]:
            return {"name": name, "amount": rng.randint(800, 20000), "category": category,
                    "category_name": expense.category_name(category), "note": note}
        city = rng.faker.city()
        return {"trip": [item(name, cat, f"Trip to {city}") for name, cat in spots[:3]],
                "item": item("Trip: Taxi to the airport", 7, f"Trip to {city}"),
                "number": random_phone_number(rng), "prefix": "Trip total:",
                "file_name": f"trip_total_{rng.randint(1, 99)}.md", "noise_seed": rng.getrandbits(32)}

    def line(self) -> str:
        total = sum(e["amount"] for e in [*self.params["trip"], self.params["item"]])
        return f"{self.params['prefix']} {format_amount(total)}"

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        noise = expense.noise_expenses(rng, rng.randint(3, 6), exclude=lambda row: row["name"].startswith("Trip"))
        trip = [expense.random_expense(rng, **{k: e[k] for k in ("name", "amount", "category", "note")})
                for e in self.params["trip"]]
        expense.EXPENSES.insert(env.device, noise + trip)
        expense.APP.force_stop(env.device)

    def goal_groups(self):
        return [(True, [expense_logged("expense", self.params["item"]), sms_sent("sms", self.params["number"], self.line()),
                        note_written("note", self.params["file_name"], self.line())])]

    def reference_steps(self) -> list[Step]:
        return [open_app("pro expense"), *st.expense_add_steps(self.params["item"]), open_app("simple sms messenger"),
                *st.sms_steps(self.params["number"], self.line()), open_app("markor"),
                *st.new_note(self.params["file_name"], self.line())]


class AndroidLensCalendarToAlarms(_Lens):
    """Look up a day's events in the calendar and set an alarm 30 minutes before each (AndroidLens'
    multi-round pattern: the later goals depend on what the first app showed)."""

    app_names = ("simple calendar pro", "clock", "simple sms messenger")
    complexity = 5.5
    difficulty, optimal_steps = "medium", 26
    tags = ("androidlens", "calendar", "clock", "sms", "category:multi-goal", "subcategory:cross-app-related", "interaction:multi-round")
    template = ("Check my events on {{ day | date }} in Simple Calendar Pro and set a one-time alarm in Clock "
                "30 minutes before each of them starts. Then text {{ number }} 'Alarms set for T1, T2, T3.' with "
                "the alarms' times, earliest first, as 24-hour HH:MM.")
    schema = _schema(day={"type": "integer"}, starts={"type": "array", "items": {"type": "integer"}},
                     number={"type": "string"}, noise_seed=_SEED)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        day = rng.randint(16, 21)
        hours = sorted(rng.sample(range(8, 21), 3))
        return {"day": epoch(*_OCT, day), "starts": [epoch(*_OCT, day, h, rng.choice((0, 30))) for h in hours],
                "number": random_phone_number(rng), "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        day = to_datetime(self.params["day"]).day
        events = [calendar.random_event(rng, day=day, hour=to_datetime(s).hour, minute=to_datetime(s).minute)
                  for s in self.params["starts"]]
        noise = calendar.noise_events(rng, 10, exclude=lambda e: to_datetime(e["start_ts"]).day in (day, day - 1))
        calendar.EVENTS.insert(env.device, noise[:5] + events + noise[5:])
        calendar.APP.force_stop(env.device)

    def _alarms(self) -> list[Any]:
        return [to_datetime(s - 1800) for s in self.params["starts"]]

    def message(self) -> str:
        return f"Alarms set for {', '.join(f'{a:%H:%M}' for a in self._alarms())}."

    def goal_groups(self):
        return [(False, [*(alarm_set(f"alarm_{i + 1}", a.hour, a.minute) for i, a in enumerate(self._alarms())),
                         sms_sent("sms", self.params["number"], self.message())])]

    def reference_steps(self) -> list[Step]:
        steps = [open_app("simple calendar pro"), *st.day_view_steps(self.params["day"]), open_app("clock"), tap("Alarm")]
        for a in self._alarms():
            steps += st.alarm_steps(a.hour, a.minute)
        return steps + [open_app("simple sms messenger"), *st.sms_steps(self.params["number"], self.message())]


_PURCHASES = (("Joe's Cafe", 3), ("City Pharmacy", 9), ("Metro Transit", 7), ("Green Grocer", 3),
              ("Cinema Paradiso", 6), ("Bookworm Books", 10), ("Style Outlet", 8), ("Fuel Stop", 7))


class AndroidLensSmsReceiptsToExpenses(_Lens):
    """Log each card purchase the bank texted as an expense (information aggregation): one
    milestone per purchase, any order."""

    app_names = ("simple sms messenger", "pro expense")
    complexity = 4.5
    difficulty, optimal_steps = "medium", 21
    tags = ("androidlens", "sms", "expense", "category:domain-specific", "subcategory:batch", "interaction:aggregation")
    template = ("My bank ({{ bank }}) texted me about three card purchases. Log each in Pro Expense named after the "
                "shop, with its amount and the category the text names, and the note 'Card'.")
    schema = _schema(bank={"type": "string"}, items={"type": "array", "items": _ITEM}, noise_seed=_SEED)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        items = [{"name": shop, "amount": rng.randint(500, 9000), "category": cat,
                  "category_name": expense.category_name(cat), "note": "Card"} for shop, cat in rng.sample(_PURCHASES, 3)]
        return {"bank": random_phone_number(rng), "items": items, "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        now = env.device.clock.now_ms()
        for i in range(3):
            sms.receive(env.device, random_phone_number(rng), sms.random_message(rng), date_ms=now - (10 - i) * 3_600_000)
        for i, item in enumerate(self.params["items"]):
            sms.receive(env.device, self.params["bank"], f"Card purchase of {format_amount(item['amount'])} at "
                        f"{item['name']} ({item['category_name']}).", date_ms=now - (3 - i) * 600_000)

    def goal_groups(self):
        return [(False, [expense_logged(f"expense_{i + 1}", item) for i, item in enumerate(self.params["items"])])]

    def reference_steps(self) -> list[Step]:
        steps = [open_app("simple sms messenger"), tap(self.params["bank"]), open_app("pro expense")]
        for item in self.params["items"]:
            steps += st.expense_add_steps(item)
        return steps


class AndroidLensBillSplit(_Lens):
    """Split a dinner bill three ways with the Calculator (a tool call), log my share and text each
    friend theirs."""

    app_names = ("calculator", "pro expense", "simple sms messenger", "contacts")
    complexity = 6
    difficulty, optimal_steps = "hard", 28
    tags = ("androidlens", "calculator", "expense", "sms", "category:multi-goal", "subcategory:cross-app-related", "interaction:tool-call")
    template = ("Dinner at {{ place }} cost {{ bill | money }} for {{ friends[0].name }}, {{ friends[1].name }} and me, "
                "split evenly. Work out the share with the Calculator, log my share in Pro Expense as 'Dinner at "
                "{{ place }}' (category Food, note 'Split 3 ways'), and text each of them 'Your share for dinner "
                "is $X' (X the share, like $12.34) in Simple SMS Messenger.")
    schema = _schema(place={"type": "string"}, bill={"type": "integer"}, friends=_PEOPLE)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"place": f"{rng.faker.last_name()}'s Grill", "bill": 3 * rng.randint(1500, 4500),
                "friends": _people(rng, 2)}

    def share(self) -> int:
        return self.params["bill"] // 3

    def message(self) -> str:
        return f"Your share for dinner is {format_amount(self.share())}"

    def _item(self) -> dict[str, Any]:
        return {"name": f"Dinner at {self.params['place']}", "amount": self.share(), "category": 3,
                "category_name": "Food", "note": "Split 3 ways"}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)
        _seed_contacts(env, self.params["friends"])

    def goal_groups(self):
        return [(False, [expense_logged("expense", self._item()),
                         *(sms_sent(f"sms_{i + 1}", f["number"], self.message())
                           for i, f in enumerate(self.params["friends"]))])]

    def reference_steps(self) -> list[Step]:
        dollars, cents = divmod(self.params["bill"], 100)
        keys = calc.keys_for(f"{dollars}.{cents:02d}\u00f73")
        steps = [open_app("calculator"), *[tap(k) for k in keys], tap("eq"), open_app("pro expense"),
                 *st.expense_add_steps(self._item()), open_app("simple sms messenger")]
        for f in self.params["friends"]:
            steps += st.sms_steps(f["name"], self.message(), contact=True)
        return steps


class AndroidLensCheaperQuote(_Lens):
    """Compare a quote kept in a Markor note with one received by SMS, answer the texting shop,
    book the cheaper and tell my partner (AndroidLens' comparison pattern)."""

    app_names = ("markor", "simple sms messenger", "pro expense")
    complexity = 4.5
    difficulty, optimal_steps = "hard", 21
    tags = ("androidlens", "markor", "sms", "expense", "category:multi-goal", "subcategory:cross-app-related", "interaction:comparison")
    template = ("I have two quotes for a {{ service }}: one from {{ shops[0] }} in the Markor note {{ file_name }} and one "
                "texted by {{ shops[1] }} ({{ number }}). Choose the cheaper. Reply to {{ shops[1] }} with 'Yes, please "
                "book it.' if theirs is cheaper, else 'No thanks.'; log the booking in Pro Expense as '{{ service }} at "
                "SHOP' (category Others, note 'Best quote') with its price; and text {{ partner }} 'Booked "
                "{{ service }} at SHOP for $X' (SHOP and X the chosen shop and price).")
    schema = _schema(service={"type": "string"}, shops={"type": "array", "items": {"type": "string"}},
                     prices={"type": "array", "items": {"type": "integer"}}, file_name={"type": "string"},
                     number={"type": "string"}, partner={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        service = rng.choice(("bike tune-up", "carpet cleaning", "piano tuning", "window cleaning", "gutter repair"))
        prices = rng.sample(range(4000, 16000, 50), 2)
        shops = rng.sample(("Ace Services", "Bright & Co", "City Fixers", "Handy Hank", "Prime Care"), 2)
        return {"service": service, "shops": shops, "prices": prices,
                "file_name": f"quote_{shops[0].split()[0].lower()}.md", "number": random_phone_number(rng),
                "partner": random_phone_number(rng)}

    def _choice(self) -> tuple[str, int]:
        (a, b), (pa, pb) = self.params["shops"], self.params["prices"]
        return (a, pa) if pa < pb else (b, pb)

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        (a, b), (pa, pb) = self.params["shops"], self.params["prices"]
        service = self.params["service"]
        markor.create_note(env.device, self.params["file_name"], f"# Quote from {a}\n\n{service.capitalize()}: "
                                                                 f"{format_amount(pa)}\n")
        sms.receive(env.device, self.params["number"], f"Hi, this is {b}. We can do the {service} for "
                                                       f"{format_amount(pb)}. Shall we book it?")

    def _reply(self) -> str:
        return "Yes, please book it." if self._choice()[0] == self.params["shops"][1] else "No thanks."

    def goal_groups(self):
        shop, price = self._choice()
        service = self.params["service"]
        item = {"name": f"{service} at {shop}", "amount": price, "category": 1, "category_name": "Others",
                "note": "Best quote"}
        return [(False, [sms_sent("reply", self.params["number"], self._reply()), expense_logged("expense", item),
                         sms_sent("partner", self.params["partner"],
                                  f"Booked {service} at {shop} for {format_amount(price)}")])]

    def reference_steps(self) -> list[Step]:
        goals = self.goal_groups()[0][1]
        item = goals[1].exact.row | {"category_name": "Others"}
        return [open_app("markor"), tap(self.params["file_name"]), back(), open_app("simple sms messenger"),
                tap(self.params["number"]), *st.reply_steps(self._reply()),
                *st.sms_steps(self.params["partner"], goals[2].exact.row["body"]),
                open_app("pro expense"), *st.expense_add_steps(item)]


class AndroidLensVideoWordsToSms(_Lens):
    """Open a video from Files in VLC (application redirection through "Open with"), write the
    words it shows in a Markor note and text them: ordered (VLC opened, note, text)."""

    app_names = ("files", "vlc", "markor", "simple sms messenger")
    complexity = 4.5
    difficulty, optimal_steps = "hard", 20
    tags = ("androidlens", "files", "vlc", "markor", "sms", "category:domain-specific", "subcategory:vlm", "interaction:redirection")
    template = ("Open the video {{ video_name }} in Download from the Files app with VLC, note the words it shows, "
                "in order, comma separated (like 'edna, pineapple') in a new Markor note {{ file_name }}, and text "
                "the same line to {{ number }} in Simple SMS Messenger.")
    schema = _schema(video_name={"type": "string"}, words={"type": "array", "items": {"type": "string"}},
                     file_name={"type": "string"}, number={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        words = _distinct(lambda: "".join(filter(str.isalpha, rng.faker.first_name())), 3)
        video = vlc.random_video_names(rng, 1)[0]
        return {"video_name": video, "words": words, "file_name": f"{video.rsplit('.', 1)[0]}_words.txt",
                "number": random_phone_number(rng)}

    def line(self) -> str:
        return ", ".join(self.params["words"])

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        vlc.write_video(env.device, DOWNLOAD_DIR, self.params["video_name"], self.params["words"], 8)

    def teardown(self, env: TaskEnv) -> None:
        env.device.files.remove(f"{DOWNLOAD_DIR}/{self.params['video_name']}")
        super().teardown(env)

    def goal_groups(self):
        # A passing state, not part of the end state. The oracle brings VLC to the front with its
        # launcher intent (the simulator's catalog has no VIEW target for `am start` to name).
        opened = Goal("vlc_opened", app_in_foreground("vlc"), lambda env: vlc.APP.launch(env.device), final=False)
        return [(True, [opened, note_written("note", self.params["file_name"], self.line()),
                        sms_sent("sms", self.params["number"], self.line())])]

    def reference_steps(self) -> list[Step]:
        return [open_app("files"), tap("Download"), tap(self.params["video_name"]), tap("VLC"), tap("Just once"),
                *[tap("Forward 10 seconds")] * len(self.params["words"]), open_app("markor"),
                *st.new_note(self.params["file_name"], self.line()), open_app("simple sms messenger"),
                *st.sms_steps(self.params["number"], self.line())]


class AndroidLensReceiptPhotoToExpense(_Lens):
    """Read a receipt photographed in Simple Gallery Pro (AndroidLens' tasks that need the model's
    own vision), log its total, text it and file the lines in a note."""

    app_names = ("simple gallery pro", "pro expense", "simple sms messenger", "markor")
    complexity = 6
    difficulty, optimal_steps = "hard", 27
    tags = ("androidlens", "simple_gallery_pro", "expense", "sms", "markor", "category:domain-specific", "subcategory:vlm",
            "interaction:aggregation")
    template = ("Look at {{ picture }} in Simple Gallery Pro (DCIM). Log the receipt's total in Pro Expense as "
                "'{{ shop }}' (category Others, note 'Receipt'), text '{{ shop }} total: $X' (X the total, like "
                "$12.34) to {{ number }}, and copy its lines, header included, into a new Markor note receipt.md.")
    schema = _schema(picture={"type": "string"}, shop={"type": "string"},
                     transactions={"type": "array", "items": {"type": "object"}}, number={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"picture": f"receipt_{rng.randint(100, 999)}.png", "shop": receipts.random_shop(rng),
                "transactions": receipts.random_transactions(rng, rng.randint(2, 3)), "number": random_phone_number(rng)}

    def total(self) -> int:
        return sum(round(float(t["amount"].lstrip("$")) * 100) for t in self.params["transactions"])

    def message(self) -> str:
        return f"{self.params['shop']} total: {format_amount(self.total())}"

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        picture = receipts.transactions_picture(self.params["shop"], self.params["transactions"])
        simple_gallery_pro.add_picture(env.device, simple_gallery_pro.DCIM, self.params["picture"], picture)

    def teardown(self, env: TaskEnv) -> None:
        simple_gallery_pro.remove_pictures(env.device, simple_gallery_pro.DCIM, [self.params["picture"]])
        super().teardown(env)

    def _item(self) -> dict[str, Any]:
        return {"name": self.params["shop"], "amount": self.total(), "category": 1, "category_name": "Others",
                "note": "Receipt"}

    def goal_groups(self):
        text = receipts.transactions_text(self.params["transactions"])
        return [(False, [expense_logged("expense", self._item()),
                         sms_sent("sms", self.params["number"], self.message()),
                         note_written("note", "receipt.md", text)])]

    def reference_steps(self) -> list[Step]:
        text = receipts.transactions_text(self.params["transactions"])
        return [open_app("simple gallery pro"), tap("DCIM"), tap(self.params["picture"]), open_app("pro expense"),
                *st.expense_add_steps(self._item()), open_app("simple sms messenger"),
                *st.sms_steps(self.params["number"], self.message()),
                open_app("markor"), *st.new_note("receipt.md", text)]


class AndroidLensTasksDueToCalendar(_Lens):
    """Put each open Tasks.org task due on a day into the calendar as an event (information
    aggregation from a read-only list into another app): one milestone per task."""

    app_names = ("tasks", "simple calendar pro")
    complexity = 7
    difficulty, optimal_steps = "hard", 35
    tags = ("androidlens", "tasks", "calendar", "category:multi-goal", "subcategory:cross-app-related", "interaction:aggregation")
    template = ("For each open task in Tasks.org due on {{ day | date }}, create an event in Simple Calendar Pro on "
                "that day at 09:00 for 1 hour, titled like the task, with the description 'From Tasks.org'.")
    schema = _schema(day={"type": "integer"}, titles={"type": "array", "items": {"type": "string"}}, noise_seed=_SEED)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        titles = _distinct(lambda: tasks_org.random_title(rng), 3)
        return {"day": epoch(*_OCT, rng.randint(16, 21)), "titles": titles, "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        day = self.params["day"]
        on_day = lambda row: day * 1000 <= int(row["dueDate"]) < (day + 86400) * 1000  # noqa: E731
        noise = tasks_org.noise_tasks(rng, 8, exclude=lambda row: on_day(row) or row["title"] in self.params["titles"])
        targets = [tasks_org.random_task(rng, title=t, due_ms=(day + 3600 * rng.randint(8, 20)) * 1000, completed=False)
                   for t in self.params["titles"]]
        tasks_org.TASKS.insert(env.device, noise[:4] + targets + noise[4:])

    def _rows(self) -> list[dict[str, Any]]:
        return [event_row(t, "From Tasks.org", self.params["day"] + 9 * 3600, 60) for t in self.params["titles"]]

    def goal_groups(self):
        return [(False, [event_saved(f"event_{i + 1}", row) for i, row in enumerate(self._rows())])]

    def reference_steps(self) -> list[Step]:
        steps = [open_app("tasks"), open_app("simple calendar pro")]
        for row in self._rows():
            steps += st.new_event_steps(row["title"], row["description"], row["start_ts"], row["end_ts"])
        return steps


class AndroidLensRecordingHandoff(_Lens):
    """Record a memo, name it, then hand it over by hand (AndroidLens' manual sharing): text its
    name to a colleague and list it in a note, once it exists (ordered)."""

    app_names = ("audio recorder", "simple sms messenger", "markor")
    complexity = 4
    difficulty, optimal_steps = "medium", 19
    tags = ("androidlens", "audio_recorder", "sms", "markor", "category:multi-goal", "subcategory:cross-app-related", "interaction:sharing")
    template = ("Record a short memo in Audio Recorder and name it '{{ name }}'. Then text '{{ message }}' to "
                "{{ number }} in Simple SMS Messenger and add a Markor note recordings.md with the line "
                "'{{ name }}.m4a'.")
    schema = _schema(name={"type": "string"}, number={"type": "string"}, message={"type": "string"})

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        name = audio_recorder.random_recording_name(rng)
        return {"name": name, "number": random_phone_number(rng),
                "message": f"I recorded '{name}', will send it over tonight."}

    def goal_groups(self):
        path = f"{audio_recorder.RECORDS_DIR}/{self.params['name']}{audio_recorder.EXTENSION}"
        recorded = Goal("recorded", file_exists(path), lambda env: audio_recorder.save_recording(
            env.device, 6, self.params["name"] + audio_recorder.EXTENSION) and None, must_hold=True)
        return [(True, [recorded, sms_sent("sms", self.params["number"], self.params["message"]),
                        note_written("note", "recordings.md", f"{self.params['name']}.m4a")])]

    def reference_steps(self) -> list[Step]:
        return [open_app("audio recorder"), tap("btn_record"), tap("btn_record_stop"), tap("txt_name"),
                type_text("input_name", self.params["name"]), tap("Save"), open_app("simple sms messenger"),
                *st.sms_steps(self.params["number"], self.params["message"]), open_app("markor"),
                *st.new_note("recordings.md", f"{self.params['name']}.m4a")]


class AndroidLensEmergencySetup(_Lens):
    """Issue #27's example: Emergency SOS switched on with its countdown alarm off, plus two
    emergency contacts, one of whom must first be saved in Contacts (the picker invokes Contacts
    from Settings: AndroidLens' tool call). The switches and contacts must hold at the end."""

    app_names = ("settings", "contacts")
    complexity = 4
    difficulty, optimal_steps = "hard", 19
    tags = ("androidlens", "settings", "contacts", "category:multi-goal", "subcategory:cross-app-related", "interaction:tool-call")
    template = ("Save {{ new.name }} ({{ new.number }}) as a new contact. Then, in Settings › Safety & emergency, "
                "turn Emergency SOS on with its countdown alarm sound off, and add {{ known.name }} and "
                "{{ new.name }} as emergency contacts.")
    schema = _schema(known=_PERSON, new=_PERSON, noise=_PEOPLE)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        known, new, *noise = _people(rng, 4)
        return {"known": known, "new": new, "noise": noise}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.reset(env.device)
        _seed_contacts(env, [self.params["known"], *self.params["noise"]])
        env.device.settings.put("secure", emergency.SOS, "0")
        env.device.settings.put("secure", emergency.SOS_SOUND, "1")
        self._saved = emergency.save(env.device)  # no app of taskkit's owns the file: this task restores it
        emergency.clear(env.device)

    def teardown(self, env: TaskEnv) -> None:
        if hasattr(self, "_saved"):
            emergency.restore(env.device, self._saved)
        super().teardown(env)

    def goal_groups(self):
        def switch(name: str, key: str, value: str) -> Goal:
            return Goal(name, setting_equals("secure", key, value),
                        lambda env: env.device.settings.put("secure", key, value), must_hold=True)

        def listed(name: str, number: str) -> Goal:
            return Goal(name, emergency.Listed(number), lambda env: emergency.add(env.device, number), must_hold=True)
        known, new = self.params["known"], self.params["new"]
        return [(False, [switch("sos_on", emergency.SOS, "1"), switch("countdown_off", emergency.SOS_SOUND, "0"),
                         listed("emergency_known", known["number"])]),
                (True, [contact_saved("contact_new", new["name"], new["number"]),
                        listed("emergency_new", new["number"])])]

    def reference_steps(self) -> list[Step]:
        known, new = self.params["known"], self.params["new"]
        return [open_app("contacts"), *st.contact_steps(new["name"], new["number"]), open_app("settings"),
                tap("Safety & emergency"), tap("Emergency SOS"), tap("Use Emergency SOS"), tap("Play countdown alarm"),
                back(), tap("Emergency contacts"), tap("Add contact"), tap(known["name"]), tap("Add contact"),
                tap(new["name"])]


# AndroidLens' "SMS plus a calendar reminder", built from three existing tasks (compose): the
# event, the contact, and the event's title texted to that contact; one milestone per part.
AndroidLensEventShare = compose(
    "AndroidLensEventShare",
    [("event", SimpleCalendarAddOneEvent), ("contact", ContactsAddContact), ("sms", SimpleSmsSend)],
    template=("In Simple Calendar Pro, create an event on {{ event.start_ts | date }} at {{ event.start_ts | time }} "
              "titled '{{ event.title }}' with the description '{{ event.description }}', lasting "
              "{{ event.duration_min | duration }}. Save {{ contact.name }} ({{ contact.number }}) as a new contact, "
              "and text them the event's title in Simple SMS Messenger."),
    bindings={"sms.number": "contact.number", "sms.message": "event.title"},
    complexity=6,
    tags=("androidlens", "calendar", "contacts", "sms", "category:multi-goal", "subcategory:cross-app-related", "interaction:sharing"),
)
AndroidLensEventShare.difficulty, AndroidLensEventShare.optimal_steps = "hard", 22

# The Chinese tasks (apps/androidlens/zh.py), the authorization tasks (authorization.py) and the
# multi-step single-goal tasks (multistep.py):
# registered with these (the loader imports `tasks` only).
from taskkit.apps.androidlens import authorization, multistep, zh  # noqa: E402,F401
