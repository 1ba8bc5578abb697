#!/usr/bin/env python3
"""formd.js and the page at / in a real browser: Debian's headless Chromium driven by selenium.

Starts the real binary on --port 0 (waiting for its listening line) with the bundled forms, and a
second HTTP server on loopback for the cross-origin cases: the same port is the allowed origin as
http://localhost:Q and a disallowed one as http://127.0.0.1:Q.

The oracle is formd itself: after each interaction the test posts the renderer's own submission to
/evaluate and checks that the DOM shows exactly that answer (visibility of every field and
section, every value, the errors). So a renderer that hides the wrong thing fails here.

    Tests/Browser/browser_tests.py [--bin .build/release/formd] [--shots DIR] [--only NAME]

test_visibility_mutant_is_caught serves a formd.js whose visibility handling is broken and
requires the oracle to notice.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORMS = ["customer-no", "employment", "expenses", "feedback-i18n", "newsletter-i18n", "registration-pureform", "signup",
         "workshop"]


# ---- processes ------------------------------------------------------------------------------

class Formd:
    def __init__(self, binary, env, forms=None, port=0):
        e = dict(os.environ, **env)
        self.proc = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--forms", forms or os.path.join(ROOT, "Forms")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=e, text=True)
        deadline = time.time() + 30
        for line in self.proc.stdout:
            m = re.search(r"listening on (http://[0-9.]+:(\d+))", line)
            if m:
                self.base, self.port = m.group(1) + "/", int(m.group(2))
                break
            if time.time() > deadline:
                raise RuntimeError("formd did not start")
        else:
            raise RuntimeError("formd exited before listening")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def post(self, path, body, origin=None):
        req = urllib.request.Request(self.base + path.lstrip("/"), data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class Origin:
    """A static server for the embedding pages (and, with --mutant, a mutated formd.js)."""

    def __init__(self, files):
        self.files = files
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = outer.files.get(self.path.split("?")[0])
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                ctype = "text/javascript" if self.path.endswith(".js") else "text/css" if self.path.endswith(".css") else "text/html"
                self.send_header("Content-Type", ctype + "; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def d_idle(d):
    return d.execute_script(IDLE_JS, "#remote-host")


def browser():
    o = Options()
    o.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1400,1000", "--disable-extensions", "--no-first-run"]:
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=o)


# ---- helpers --------------------------------------------------------------------------------

IDLE_JS = """
const host = document.querySelector(arguments[0]);
const v = host && host.formdView;
return !!(v && v.form && !v.inFlight && v.pending.length === 0 && !v.form.hasAttribute('data-loading'));
"""


class Page:
    def __init__(self, d, formd, host="[data-page-form]"):
        self.d, self.formd, self.host = d, formd, host

    def idle(self, timeout=10):
        # Two consecutive idle readings: a change handler may queue work right after an answer.
        end = time.time() + timeout
        streak = 0
        while time.time() < end:
            streak = streak + 1 if self.d.execute_script(IDLE_JS, self.host) else 0
            if streak >= 2:
                return
            time.sleep(0.02)
        raise AssertionError("the form did not settle")

    def js(self, script, *args):
        return self.d.execute_script(f"const v = document.querySelector({json.dumps(self.host)}).formdView;\n" + script, *args)

    def field(self, fid):
        return self.d.find_element(By.CSS_SELECTOR, f'{self.host} [data-field="{fid}"]')

    def control(self, fid):
        return self.field(fid).find_element(By.CSS_SELECTOR, "input:not([type=hidden]), select, textarea, output")

    def leave(self, fid):
        """Focus the field's control, then leave it: its errors show from then on."""
        self.d.execute_script("arguments[0].focus(); arguments[0].blur();", self.control(fid))
        self.idle()

    def type(self, fid, text, clear=True):
        c = self.control(fid)
        if clear:
            c.send_keys(Keys.CONTROL, "a")
            c.send_keys(Keys.DELETE)
        c.send_keys(text)
        self.idle()

    def pick(self, fid, option_text):
        Select(self.control(fid)).select_by_visible_text(option_text)
        self.idle()

    def radio(self, fid, label):
        for lab in self.field(fid).find_elements(By.CSS_SELECTOR, "label"):
            if lab.text == label:
                lab.click()
                self.idle()
                return
        raise AssertionError(f"{fid}: no option {label}")

    def choose(self, fid, ids):
        """Ticks exactly the checkboxes of a multiple choice whose values are in `ids`."""
        for box in self.field(fid).find_elements(By.CSS_SELECTOR, "input[type=checkbox]"):
            if box.is_selected() != (box.get_attribute("value") in ids):
                box.click()
                self.idle()

    def visible(self, fid):
        return self.field(fid).is_displayed()

    def value(self, fid):
        """What the control holds; for an output (a computed field), what formd has (data-value)."""
        c = self.control(fid)
        return c.get_attribute("data-value") if c.tag_name == "output" else c.get_attribute("value")

    def shown(self, fid):
        """An output's text as the person reads it (spaces of any width as one plain space)."""
        return re.sub(r"\s", " ", self.control(fid).get_attribute("textContent"))

    def error(self, fid):
        # Read in one script: a locale switch redraws the form, and an element found in one
        # command can be gone by the next (answers computed in the page arrive at once).
        for _ in range(3):
            try:
                return self.d.execute_script(
                    "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                    f'{self.host} [data-error-for="{fid}"]')
            except StaleElementReferenceException:
                continue
        return None

    def form_id(self):
        return self.js("return v.formId;")

    def oracle(self):
        """formd's answer for exactly what the renderer would send now."""
        values = self.js("return v.submission();")
        locale = self.js("return v.client.locale || 'en';")
        status, answer = self.formd.post(f"forms/{self.form_id()}/evaluate?locale={locale}", {"values": values, "changed": []})
        assert status == 200, (status, answer)
        return answer

    def check_matches_formd(self):
        """Every field and section shown or hidden as formd says, every shown value as formd has it."""
        self.idle()
        answer = self.oracle()
        dom = self.js("""
const out = {fields: {}, sections: {}};
for (const w of v.form.querySelectorAll('[data-field]')) {
  const c = w.querySelector('input:not([type=hidden]), select, textarea, output');
  let value = null;
  if (c && c.tagName === 'OUTPUT') value = c.dataset.value;
  else if (w.dataset.kind === 'multi_select') value = [...w.querySelectorAll('input[type=checkbox]:checked')].map((b) => b.value);
  else if (c && c.type === 'checkbox') value = c.checked;
  else if (c && c.type === 'radio') { const on = w.querySelector('input[type=radio]:checked'); value = on ? on.value : ''; }
  else if (c && c.tagName === 'SELECT') value = c.selectedOptions[0] ? c.selectedOptions[0].value : '';
  else if (c) value = c.value;
  const hiddenUp = !!w.closest('[hidden]');
  out.fields[w.dataset.field] = {hidden: w.hidden, shown: !hiddenUp, value, kind: w.dataset.kind, focused: c === document.activeElement};
}
for (const s of v.form.querySelectorAll('[data-section]')) out.sections[s.dataset.section] = {hidden: s.hidden};
return out;""")
        problems = []
        for fid, st in answer["fields"].items():
            f = dom["fields"].get(fid)
            if f is None:
                problems.append(f"{fid}: not rendered")
                continue
            if f["shown"] != st["visible"]:
                problems.append(f"{fid}: shown={f['shown']} but formd says visible={st['visible']}")
            if not st["visible"] or f["kind"] in ("button", "spacer") or f["focused"]:
                continue
            want = answer["values"].get(fid)
            if not same_display(f, want):
                problems.append(f"{fid}: shows {f['value']!r}, formd has {want!r}")
        for sid, st in answer["sections"].items():
            s = dom["sections"].get(sid)
            if s is None:
                problems.append(f"section {sid}: not rendered")
            elif s["hidden"] == st["visible"]:
                problems.append(f"section {sid}: hidden={s['hidden']} but formd says visible={st['visible']}")
        for fid in dom["fields"]:
            if fid not in answer["fields"]:
                problems.append(f"{fid}: rendered, but formd has no such field now")
        assert not problems, "the DOM does not show formd's answer:\n  " + "\n  ".join(problems)
        return answer


def js_number(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else repr(x)
    return str(x)


def same_display(f, want):
    kind, got = f["kind"], f["value"]
    if kind == "switch":
        return got == (want is True)
    if kind == "multi_select":
        return sorted(got) == sorted(w if isinstance(w, str) else js_number(w) for w in (want or []))
    if want is None:
        return got in ("", None)
    if kind == "date_time":
        return bool(got)  # shown in the browser's local time; the post copy is checked elsewhere
    if kind == "float" and isinstance(want, (int, float)):
        got = got.replace(",", ".")  # a decimal comma where the locale writes one (formd reads it)
    return got == (want if isinstance(want, str) else js_number(want))


def console_errors(d):
    return [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]


# ---- tests ----------------------------------------------------------------------------------

class Suite:
    def __init__(self, args):
        self.args = args
        self.origin_files = {}
        self.origin = Origin(self.origin_files)
        allowed = f"http://localhost:{self.origin.port}"
        # Plain HTML forms (no JavaScript) land on these pages of the other origin.
        self.origin_files["/thanks.html"] = b"<!doctype html><title>thanks</title><p>Thanks!"
        self.origin_files["/fix.html"] = b"<!doctype html><title>fix</title><p>Please fix the form."
        self.formd = Formd(args.bin, {
            "FORMD_CORS_ALLOWED_ORIGINS": allowed, "FORMD_LOG_LEVEL": "warning",
            "FORMD_HTML_SUCCESS_URL": f"http://localhost:{self.origin.port}/thanks.html",
            "FORMD_HTML_ERROR_URL": f"http://localhost:{self.origin.port}/fix.html",
        })
        self.d = browser()
        self.d.set_script_timeout(20)
        os.makedirs(args.shots, exist_ok=True)
        self.embed_page(self.formd.base + "client/formd.js")

    def embed_page(self, module_url):
        # The README's three lines, as an embedder on another origin writes them.
        self.origin_files["/embed.html"] = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>embedded</title>
<link rel="stylesheet" href="{self.formd.base}client/formd.css"></head><body>
<div id="signup" data-formd-form="signup">Loading the sign-up form…</div>
<script type="module" src="{module_url}"></script>
</body></html>""".encode()

    def open(self, form, locale="en"):
        # A fresh form: nothing kept from an earlier test (formd.js keeps what was typed per form
        # and version in localStorage, docs/CLIENT.md "Offline").
        self.d.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": self.formd.base.rstrip("/"), "storageTypes": "local_storage"})
        self.d.get(f"{self.formd.base}?form={form}&locale={locale}")
        p = Page(self.d, self.formd)
        WebDriverWait(self.d, 10).until(lambda d: d.execute_script(IDLE_JS, "[data-page-form]"))
        assert p.form_id() == form
        p.idle()
        return p

    def close(self):
        self.d.quit()
        self.formd.stop()
        self.origin.server.shutdown()

    # -- every bundled form

    def test_every_form_renders_as_formd_says(self):
        for form in FORMS:
            p = self.open(form)
            p.check_matches_formd()
            labels = self.d.execute_script("""
const missing = [];
for (const c of document.querySelectorAll('[data-page-form] input:not([type=hidden]), [data-page-form] select, [data-page-form] textarea')) {
  if (!c.labels || c.labels.length === 0) missing.push(c.name || c.id);
  if (!c.name && c.type !== 'datetime-local') missing.push('no name: ' + c.id);
}
return missing;""")
            assert labels == [], f"{form}: controls without a label or name: {labels}"
            self.d.save_screenshot(os.path.join(self.args.shots, f"{form}.png"))
            errs = console_errors(self.d)
            assert errs == [], f"{form}: console errors (CSP violations included): {errs}"

    # Values that make each bundled form valid, entered through its controls; "+items" adds an instance.
    FIXES = {
        "customer-no": [("first_name", "Kari"), ("last_name", "Nordmann"), ("social_security_number", "150765 00565"),
                        ("email", "kari@example.no"), ("phone_number", "987 65 432"), ("address", "Storgata 1"),
                        ("postal_code", "0450")],
        "employment": [("first_name", "Ola"), ("last_name", "Nordmann"), ("start_date", "2024-01-01")],
        "expenses": [("employee_name", "Kari Nordmann"), ("report_date", "2026-11-20"),
                     ("items[0].description", "Taxi"), ("items[0].date", "2026-11-19"), ("items[0].unit_price", "250")],
        "feedback-i18n": [("visited_at", "2026-11-20T10:30:00"), ("rating", "4")],
        "newsletter-i18n": [("name", "Kari Nordmann"), ("email", "kari@example.no")],
        "signup": [("email", "ola@example.com"), ("username", "ola_n"), ("password", "hemmelig1"),
                   ("password_confirmation", "hemmelig1"), ("terms", True)],
        "registration-pureform": [("email", "kari@example.no"), ("full_name", "Kari Nordmann"), ("password", "hemmelig1"),
                                  ("password_confirmation", "hemmelig1"), ("pin", "1234"), ("terms", True)],
        "workshop": [("name", "Kari Nordmann"), ("email", "kari@example.no"), ("sessions", ["swift", "forms"])],
    }

    def fill(self, p, fid, value):
        if fid.startswith("+"):
            self.d.find_element(By.CSS_SELECTOR, f'[data-page-form] [data-add-instance="{fid[1:]}"]').click()
            p.idle()
            return
        if isinstance(value, list):
            p.choose(fid, value)
            return
        c = p.control(fid)
        if value is True:
            c.click()
            p.idle()
        elif c.get_attribute("type") in ("date", "time", "datetime-local"):
            # Date pickers take typed digits in the browser's locale order; set the value as a picker does.
            self.d.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", c, value)
            p.idle()
        else:
            p.type(fid, value)

    def submit_and_wait(self, p, status):
        buttons = [b for b in self.d.find_elements(By.CSS_SELECTOR, "[data-page-form] button[type=submit]") if b.is_displayed()]
        assert len(buttons) == 1, f"one visible submit button, not {len(buttons)}"
        buttons[0].click()
        WebDriverWait(self.d, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-status]").get_attribute("data-status") == status)

    def verdict(self, p, locale):
        status, answer = self.formd.post(f"forms/{p.form_id()}/validate?locale={locale}", p.js("return v.submission();"))
        assert status in (200, 422), (status, answer)
        return answer

    def errors_shown(self, p):
        return self.d.execute_script("""
const out = {};
for (const e of document.querySelectorAll('[data-page-form] [data-error-for]')) if (e.textContent) out[e.dataset.errorFor] = e.textContent;
const f = document.querySelector('[data-page-form] [data-form-errors]');
if (f && f.textContent) out[''] = f.textContent;
return out;""")

    def test_every_form_submit_invalid_switch_locale_then_fix(self):
        for form in FORMS:
            p = self.open(form, "en")
            self.submit_and_wait(p, "invalid")
            for locale in ["en", "nb"]:
                if locale == "nb":
                    Select(self.d.find_element(By.CSS_SELECTOR, "[data-page-locale]")).select_by_value("nb")
                    p.idle()
                want = {}
                for e in self.verdict(p, locale)["errors"]:
                    key = e.get("field", e.get("section", ""))
                    want[key] = (want[key] + " " if key in want else "") + e["message"]
                WebDriverWait(self.d, 5).until(lambda d: self.errors_shown(p) == want)
            for fid, value in self.FIXES[form]:
                self.fill(p, fid, value)
            self.submit_and_wait(p, "valid")
            assert self.errors_shown(p) == {}, f"{form}: {self.errors_shown(p)}"
            verdict = self.verdict(p, "nb")
            assert verdict["valid"], f"{form}: {verdict['errors']}"
            shown = json.loads(self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-values]").text)
            assert shown == verdict["values"], f"{form}: shows {shown}, formd normalised {verdict['values']}"

    def test_employment_options_formulas_and_visibility(self):
        p = self.open("employment")
        assert p.visible("bonus") and not p.visible("end_date")
        p.pick("employment_type", "Contractor")
        assert not p.visible("bonus") and p.visible("end_date")
        p.check_matches_formd()
        p.pick("employment_type", "Permanent")
        assert p.visible("bonus") and not p.visible("end_date")
        total_before = p.value("total")
        p.type("bonus", "50000")
        assert p.value("total") != total_before, "the total formula did not update"
        answer = p.check_matches_formd()
        assert p.value("total") == js_number(answer["values"]["total"])
        assert p.value("monthly_salary") == js_number(answer["values"]["monthly_salary"])
        p.type("pension_percent", "9")
        assert p.error("pension_percent") == "", "no error while the person is still in the field"
        p.leave("pension_percent")
        assert p.error("pension_percent"), "a max_value error once the field is left"
        c = p.control("pension_percent")
        assert c.get_attribute("aria-invalid") == "true"
        described = c.get_attribute("aria-describedby").split()
        err_id = self.d.find_element(By.CSS_SELECTOR, '[data-error-for="pension_percent"]').get_attribute("id")
        assert err_id in described, (described, err_id)
        p.type("pension_percent", "5")
        assert p.error("pension_percent") == "" and c.get_attribute("aria-invalid") is None
        p.check_matches_formd()

    def test_expenses_instances_come_and_go(self):
        p = self.open("expenses")
        # min_instances 1: the report opens with its first expense, items[0], and no error.
        assert [e.get_attribute("data-section") for e in self.d.find_elements(By.CSS_SELECTOR, '[data-section^="items["]')] == ["items[0]"]
        assert p.error("items") == "" and self.errors_shown(p) == {}, self.errors_shown(p)
        p.type("items[0].description", "Taxi to the airport")
        p.type("items[0].unit_price", "250,5")
        assert p.value("items[0].amount") == "250.5", p.value("items[0].amount")
        assert p.value("total") == "250.5" and p.shown("total") == "250.50", (p.value("total"), p.shown("total"))
        add = self.d.find_element(By.CSS_SELECTOR, '[data-add-instance="items"]')
        add.click()
        p.idle()
        assert self.d.find_elements(By.CSS_SELECTOR, '[data-section="items[1]"]'), "the next instance is items[1]"
        assert self.d.switch_to.active_element.get_attribute("name") == "items[1].description", "focus moves into the new instance"
        assert p.error("items") == ""
        p.type("items[1].unit_price", "100")
        p.type("items[1].quantity", "2")
        assert p.value("total") == "450.5", p.value("total")
        assert p.value("item_count") == "2"
        assert not p.visible("items[1].justification")
        p.pick("items[1].category", "Other")
        assert p.visible("items[1].justification"), "option target shows the instance's field"
        p.check_matches_formd()
        self.d.save_screenshot(os.path.join(self.args.shots, "expenses-with-instances.png"))
        self.d.find_element(By.CSS_SELECTOR, '[data-remove-instance="items[0]"]').click()
        p.idle()
        assert not self.d.find_elements(By.CSS_SELECTOR, '[data-section="items[0]"]')
        assert p.value("total") == "200" and p.value("item_count") == "1"
        assert self.d.switch_to.active_element.get_attribute("data-add-instance") == "items"
        p.check_matches_formd()
        # Removing the last one: the section was acted on, so its min_instances error shows.
        self.d.find_element(By.CSS_SELECTOR, '[data-remove-instance="items[1]"]').click()
        p.idle()
        assert p.error("items") == "Add at least 1 expense.", p.error("items")
        # Past max_instances (10) formd evaluates no more: the extra instance goes, the error shows.
        for _ in range(11):
            add.click()
            p.idle()
        shown = self.d.find_elements(By.CSS_SELECTOR, '[data-section^="items["]')
        assert len(shown) == 10, len(shown)
        assert "10" in p.error("items"), p.error("items")
        p.check_matches_formd()

    def test_signup_submit_invalid_then_fixed_and_native_post(self):
        p = self.open("signup")
        assert not p.visible("newsletter_topic")
        p.control("newsletter").click()
        p.idle()
        assert p.visible("newsletter_topic") and p.visible("newsletter_frequency")
        p.control("newsletter").click()
        p.idle()
        assert not p.visible("newsletter_topic")
        p.type("username", "Bad Name")
        assert p.error("username") == "", "no error while the person is still typing in the field"
        p.leave("username")
        assert p.error("username") == "Use only lowercase letters, digits and underscores.", p.error("username")
        p.type("username", "Bad Name2")
        assert p.error("username"), "once left, the field's error follows each edit"
        submit = self.d.find_element(By.CSS_SELECTOR, '[data-field="create_account"] button')
        assert submit.get_attribute("type") == "submit"
        submit.click()
        WebDriverWait(self.d, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-form-status]").get_attribute("data-status") == "invalid")
        assert "required" in p.error("email").lower(), p.error("email")
        assert p.error("terms") == "Please accept the terms of service.", p.error("terms")
        assert self.d.switch_to.active_element.get_attribute("name") == "email", "focus goes to the first invalid field"
        p.type("email", "ola@example.com")
        assert p.error("email") == "", "fixed error goes away"
        assert p.error("password"), "after a failed submit, untouched fields keep their errors"
        p.type("username", "ola_n")
        p.type("password", "hemmelig1")
        p.type("password_confirmation", "hemmelig1")
        p.control("terms").click()
        p.idle()
        submit.click()
        WebDriverWait(self.d, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-form-status]").get_attribute("data-status") == "valid")
        shown = json.loads(self.d.find_element(By.CSS_SELECTOR, "[data-form-values]").text)
        assert shown["username"] == "ola_n" and shown["terms"] is True, shown
        # The same <form>, posted natively as urlencoded, is a valid submission.
        body = self.d.execute_script("return new URLSearchParams(new FormData(document.querySelector('[data-page-form] form'))).toString();")
        req = urllib.request.Request(self.formd.base + "forms/signup/validate", data=body.encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"}, method="POST")
        with urllib.request.urlopen(req) as r:
            verdict = json.loads(r.read())
        assert r.status == 200 and verdict["valid"], (body, verdict)

    def test_customer_segment_update_target_and_sections(self):
        p = self.open("customer-no")
        assert not self.d.find_element(By.CSS_SELECTOR, '[data-section="bedrift"]').is_displayed()
        p.radio("customer_type", "Bedrift")
        assert self.d.find_element(By.CSS_SELECTOR, '[data-section="bedrift"]').is_displayed()
        assert Select(p.control("invoice_by")).first_selected_option.get_attribute("value") == "ehf", "update target applied"
        p.type("first_name", "Kari")
        p.type("last_name", "Nordmann")
        assert p.value("full_name") == "Kari Nordmann"
        p.check_matches_formd()
        p.radio("customer_type", "Privatperson")
        assert not self.d.find_element(By.CSS_SELECTOR, '[data-section="bedrift"]').is_displayed()
        assert Select(p.control("invoice_by")).first_selected_option.get_attribute("value") == "efaktura"
        p.check_matches_formd()

    def test_feedback_locale_switch_and_enable_disable(self):
        p = self.open("feedback-i18n")
        p.type("rating", "2")
        assert p.visible("what_went_wrong")
        p.control("anonymous").click()
        p.idle()
        assert not self.d.find_element(By.CSS_SELECTOR, '[data-section="contact-details"]').is_displayed()
        assert p.control("contact_me").get_attribute("disabled") is not None, "disable target"
        p.check_matches_formd()
        p.type("rating", "")
        submits = lambda: [b for b in self.d.find_elements(By.CSS_SELECTOR, "[data-page-form] button[type=submit]") if b.is_displayed()]
        assert len(submits()) == 1 and submits()[0].text == "Submit", "the form's own button is hidden: the renderer's shows"
        submits()[0].click()
        WebDriverWait(self.d, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-form-status]").get_attribute("data-status") == "invalid")
        assert p.error("rating") == "Please rate your visit from 1 to 5.", p.error("rating")
        Select(self.d.find_element(By.CSS_SELECTOR, "[data-page-locale]")).select_by_value("nb")
        WebDriverWait(self.d, 5).until(lambda d: p.error("rating") == "Gi besøket en karakter fra 1 til 5.")
        assert "locale=nb" in self.d.current_url
        assert [b.text for b in submits()] == ["Send"], "the renderer's own words follow the locale"
        p.control("anonymous").click()
        p.idle()
        assert [b.text for b in submits()] == ["Send tilbakemelding"], "with its section shown, the form's own button submits"
        # A link opens the same form in the same locale.
        self.d.get(self.d.find_element(By.ID, "form-link").get_attribute("href"))
        p2 = Page(self.d, self.formd)
        WebDriverWait(self.d, 10).until(lambda d: d.execute_script(IDLE_JS, "[data-page-form]"))
        assert p2.form_id() == "feedback-i18n" and p2.js("return v.client.locale;") == "nb"

    def test_conditional_required_warnings_and_clear_when_hidden(self):
        """SEMANTICS §5.4, §6, §6.1 in the browser: a conditional required is marked live, a warning
        shows in its own element without aria-invalid, a clear_when_hidden field loses its value
        when hidden while another hidden field keeps it."""
        p = self.open("feedback-i18n")
        assert p.field("callback_time").get_attribute("data-required") is None
        p.control("contact_me").click()
        p.idle()
        p.type("callback.phone_number", "98765432")
        assert p.field("callback_time").get_attribute("data-required") is not None, "required once its condition holds"
        assert p.control("callback_time").get_attribute("aria-required") == "true"
        p.check_matches_formd()

        p.type("party_size", "12")
        p.leave("party_size")
        warning = self.d.find_element(By.CSS_SELECTOR, '[data-page-form] [data-warning-for="party_size"]')
        assert warning.get_attribute("textContent") == "For more than 8 people, please call us to book.", warning.get_attribute("textContent")
        assert warning.get_attribute("role") == "status"
        assert p.field("party_size").get_attribute("data-warning") is not None
        assert p.control("party_size").get_attribute("aria-invalid") is None, "a warning is not an error"
        assert warning.get_attribute("id") in (p.control("party_size").get_attribute("aria-describedby") or "")
        assert p.error("party_size") == ""
        p.type("party_size", "4")
        p.leave("party_size")
        assert warning.get_attribute("textContent") == "" and p.field("party_size").get_attribute("data-warning") is None

        p.type("rating", "2")
        p.radio("channel", "Store")
        assert p.visible("manager_callback")
        p.control("manager_callback").click()
        p.idle()
        p.type("what_went_wrong", "Slow service")
        p.type("rating", "5")
        assert not p.visible("manager_callback") and not p.visible("what_went_wrong")
        p.type("rating", "2")
        assert p.visible("manager_callback")
        assert not p.control("manager_callback").is_selected(), "clear_when_hidden: hidden, so cleared"
        assert p.value("what_went_wrong") == "Slow service", "kept by default: back as typed"
        p.check_matches_formd()

    def test_typing_fast_never_leaves_a_stale_answer(self):
        p = self.open("customer-no")
        c = p.control("first_name")
        c.send_keys("Abcdefghijklmnopqrstuvwxyz" * 2)  # 52 keystrokes, no waiting
        p.idle()
        assert p.value("full_name").startswith("Abcdefghijklmnopqrstuvwxyz" * 2)
        p.check_matches_formd()
        # A network that answers out of order: random delays on every request of a second form.
        self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
const host = document.createElement('div'); host.id = 'slow'; document.body.append(host);
import('/client/formd.js').then(async (m) => {
  const slow = (url, init) => new Promise((r) => setTimeout(r, 5 + Math.random() * 120)).then(() => fetch(url, init));
  await m.render(host, 'customer-no', {fetch: slow});
  done();
});""")
        slow = Page(self.d, self.formd, "#slow")
        slow.idle()
        ctl = slow.control("first_name")
        for ch in "Ola Nordmann":
            ctl.send_keys(ch)
        slow.type("last_name", "Hansen", clear=False)
        slow.idle()
        assert slow.value("full_name") == "Ola Nordmann Hansen", slow.value("full_name")
        slow.check_matches_formd()

    def test_answers_out_of_order_never_replace_a_newer_state(self):
        self.open("signup")
        r = self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
import('/client/formd.js').then(async (m) => {
  let n = 0;
  const fake = (url, init) => {
    const i = ++n, body = JSON.parse(init.body);
    return new Promise((res) => setTimeout(() => res(new Response(JSON.stringify({form: 'x', values: body.values}),
      {status: 200, headers: {'Content-Type': 'application/json'}})), i === 1 ? 200 : 10));
  };
  const s = new m.FormSession(new m.FormdClient({fetch: fake}), 'x');
  const [first, second] = await Promise.all([s.evaluate({v: 1}), s.evaluate({v: 2})]);
  done({first, second: second && second.values, state: s.state.values});
});""")
        assert r["first"] is None and r["second"] == {"v": 2} and r["state"] == {"v": 2}, r

    def test_problem_answers_are_typed_errors(self):
        self.open("signup")
        r = self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
import('/client/formd.js').then(async (m) => {
  const c = new m.FormdClient();
  const out = {};
  try { await c.evaluate('no-such-form', {}); } catch (e) { out.notFound = [e instanceof m.FormdError, e.status, e.slug, e.isNotFound, e.detail]; }
  try { await c.evaluate('signup', {}, ['nope']); } catch (e) { out.bad = [e.status, e.slug]; }
  try { await c.evaluate('signup', {}, [], {version: '"stale"'}); } catch (e) { out.pre = [e.status, e.slug, e.isPreconditionFailed]; }
  const a = await c.definition('signup'); const b = await c.definition('signup');
  out.cached = a === b && !!a.version;
  const dead = new m.FormdClient({server: 'http://127.0.0.1:9/'});
  try { await dead.listForms(); } catch (e) { out.network = [e.status, e.slug, e.isNetwork]; }
  done(out);
});""")
        assert r["notFound"] == [True, 404, "not-found", True, 'no form "no-such-form"'], r
        assert r["bad"] == [400, "bad-request"], r
        assert r["pre"] == [412, "precondition-failed", True], r
        assert r["cached"] is True, r
        assert r["network"] == [0, "network", True], r

    def test_a_form_changed_on_the_server_keeps_the_values_and_shows_what_changed(self):
        # issue 32: the page drew an earlier version (here: signup without "newsletter", pinned to
        # a version formd does not hold); its next request is a 412; the client fetches the current
        # definition, keeps what the person typed, evaluates again and marks what changed.
        self.open("signup")
        r = self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
const host = document.createElement('div'); host.id = 'changed'; document.body.append(host);
import('/client/formd.js').then(async (m) => {
  // Evaluates go to the server here (the page's engine off), so the next one meets the 412; with
  // the engine in the page the same handling runs at the submit, which always asks the server.
  const view = await m.render(host, 'signup', {local: false});
  const events = [];
  host.addEventListener('formd:changed', (e) => events.push(e.detail));
  const strip = (node) => {
    if (Array.isArray(node)) return node.filter((f) => !(f && f.id === 'newsletter')).map(strip);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, strip(v)]));
    return node;
  };
  view.definition = strip(view.definition);
  view.session.version = '"00000000000000000000000000000000"';
  view.values.email = 'ola@example.com';
  const status = [];
  view.client.listeners.add((e) => { if (e.phase === 'response') status.push(e.status); });
  await view.refresh(['email']);
  // The 412 is handled after refresh() returns: wait for the event and the new version's answer.
  for (let i = 0; i < 200 && !(events.length && status[status.length - 1] === 200); i++) await new Promise((res) => setTimeout(res, 20));
  const notice = host.querySelector('[data-form-notice]');
  done({events, status, notice: notice && !notice.hidden ? notice.textContent : null,
        marked: [...host.querySelectorAll('[data-formd-changed]')].map((n) => n.querySelector('[data-key]') && n.querySelector('[data-key]').dataset.key),
        version: view.session.version, email: view.values.email});
});""")
        assert r["events"] and r["events"][0]["added"] == ["newsletter"], r
        assert r["events"][0]["from"] == '"00000000000000000000000000000000"' and r["events"][0]["to"] == r["version"], r
        assert 412 in r["status"] and r["status"][-1] == 200, r
        assert r["notice"] and r["notice"].startswith("This form was updated"), r
        assert "newsletter" in r["marked"], r
        assert r["email"] == "ola@example.com", "the values are kept"
        # The 412 is the browser's one console error here (read, so the next test starts clean).
        errs = console_errors(self.d)
        assert all("412" in e for e in errs), errs

    def test_unreachable_formd_keeps_edits_and_recovers(self):
        self.open("signup")
        self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
const host = document.createElement('div'); host.id = 'flaky'; document.body.append(host);
window.__down = false;
import('/client/formd.js').then(async (m) => {
  const flaky = (url, init) => window.__down ? Promise.reject(new TypeError('Failed to fetch')) : fetch(url, init);
  // The server-only path (as where WebAssembly cannot run): the page's engine is off.
  await m.render(host, 'signup', {fetch: flaky, local: false});
  done();
});""")
        p = Page(self.d, self.formd, "#flaky")
        p.idle()
        self.d.execute_script("window.__down = true;")
        p.control("newsletter").click()
        banner = self.d.find_element(By.CSS_SELECTOR, "#flaky [data-form-message]")
        WebDriverWait(self.d, 5).until(lambda d: banner.is_displayed())
        assert banner.text == "The form cannot reach the server right now. Your changes are kept and will be sent again.", banner.text
        assert "formd" not in banner.text.lower()
        assert not p.visible("newsletter_topic"), "nothing is shown that formd did not answer"
        self.d.execute_script("window.__down = false;")
        WebDriverWait(self.d, 6).until(lambda d: p.visible("newsletter_topic"))
        assert not banner.is_displayed()
        p.check_matches_formd()

    def test_the_pages_engine_answers_and_keeps_working_offline(self):
        """formd-engine.wasm evaluates in the page: no evaluate request once it is loaded, the
        answers are the server's, and with the network cut formulas and show/hide still follow."""
        self.open("signup")  # the page (its CSP allows the engine: 'wasm-unsafe-eval')
        self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
const host = document.createElement('div'); host.id = 'local'; document.body.append(host);
window.__down = false; window.__evaluates = 0; window.__mismatches = 0;
host.addEventListener('formd:mismatch', () => window.__mismatches++);
import('/client/formd.js').then(async (m) => {
  const net = (url, init) => {
    if (window.__down) return Promise.reject(new TypeError('Failed to fetch'));
    if (String(url).includes('/evaluate')) window.__evaluates++;
    return fetch(url, init);
  };
  const view = await m.render(host, 'expenses', {fetch: net});
  await view.session.ready;
  done();
});""")
        p = Page(self.d, self.formd, "#local")
        p.idle()
        assert self.d.execute_script("return !!document.querySelector('#local').formdView.session.local"), "the engine loaded"
        before = self.d.execute_script("return window.__evaluates")
        self.d.execute_script("window.__down = true;")
        price = p.control("items[0].unit_price")
        price.clear()
        price.send_keys("100")
        qty = p.control("items[0].quantity")
        qty.clear()
        qty.send_keys("3")
        qty.send_keys(Keys.TAB)
        WebDriverWait(self.d, 5).until(lambda d: "300" in (p.value("items[0].amount") or ""))
        assert self.d.execute_script("return window.__evaluates") == before, "no evaluate went to the server"
        banner = self.d.find_element(By.CSS_SELECTOR, "#local [data-form-message]")
        assert not banner.is_displayed(), "offline, the page's engine answers: nothing to report"
        # Back online, a submit goes to the server, whose verdict the page's engine matches.
        self.d.execute_script("window.__down = false;")
        self.d.execute_script("return document.querySelector('#local').formdView.submit()")
        WebDriverWait(self.d, 5).until(lambda d: d.execute_script("return document.querySelector('#local [data-form-status]').textContent !== ''"))
        assert self.d.execute_script("return window.__mismatches") == 0

    # -- offline (issue 31, item 6): a formd of its own, stopped and started again on its port

    def offline_server(self, forms=("expenses", "signup"), port=0):
        if port == 0:
            self.offline_forms = tempfile.mkdtemp(prefix="formd-offline-")
            for f in forms:
                shutil.copy(os.path.join(ROOT, "Forms", f + ".json"), self.offline_forms)
        return Formd(self.args.bin, {"FORMD_LOG_LEVEL": "warning"}, forms=self.offline_forms, port=port)

    def open_for_offline(self, server, form, locale):
        """Opens the page of `server` and waits until its offline worker controls it, has kept
        what the form needs, and the page's engine is loaded."""
        self.d.get(f"{server.base}?form={form}&locale={locale}")
        p = Page(self.d, self.formd)  # the oracle: the suite's formd, with the same definitions
        WebDriverWait(self.d, 15).until(lambda d: d.execute_script(IDLE_JS, "[data-page-form]"))
        WebDriverWait(self.d, 60).until(lambda d: d.execute_script(
            "const v = document.querySelector('[data-page-form]').formdView;"
            "return !!(navigator.serviceWorker.controller && v && v.form && v.form.hasAttribute('data-offline') && v.session.local);"))
        p.idle()
        return p

    def status(self, host="[data-page-form]"):
        return self.d.execute_script(
            "const s = document.querySelector(arguments[0] + ' [data-form-status]'); return s ? [s.dataset.status || '', s.textContent] : null;", host)

    def click_submit(self):
        """Clicks the form's visible submit button (its own, or the one the renderer adds)."""
        [b for b in self.d.find_elements(By.CSS_SELECTOR, "[data-page-form] form button[type=submit]") if b.is_displayed()][0].click()

    def reload_offline(self):
        self.d.refresh()
        WebDriverWait(self.d, 20).until(lambda d: d.execute_script(IDLE_JS, "[data-page-form]"))
        Page(self.d, self.formd).idle()

    def test_offline_the_page_works_and_a_queued_submit_goes_when_formd_is_back(self):
        """After one visit, formd stopped: the page, the client, the engine and the form come from
        the service worker; formulas and show/hide follow typing; a reload keeps the values
        (instances too); a submit reads `queued` and is sent by itself once formd is back."""
        server = self.offline_server()
        port = server.port
        try:
            p = self.open_for_offline(server, "expenses", "nb")
            p.type("employee_name", "Kari Nordmann")
            server.stop()  # the network is cut: nothing answers on that port any more
            p.type("items[0].description", "Taxi til flyplassen")
            p.type("items[0].unit_price", "250,5")
            assert p.value("total") == "250.5", p.value("total")
            assert not p.visible("items[0].justification")
            Select(p.control("items[0].category")).select_by_value("other")
            p.idle()
            assert p.visible("items[0].justification"), "show/hide follows typing offline"
            p.type("items[0].justification", "Nattbuss var innstilt")
            self.d.find_element(By.CSS_SELECTOR, '[data-page-form] [data-add-instance="items"]').click()
            p.idle()
            p.type("items[1].unit_price", "100")
            p.type("items[1].quantity", "2")
            assert p.value("total") == "450.5" and p.value("item_count") == "2", (p.value("total"), p.value("item_count"))
            p.check_matches_formd()
            banner = self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-message]")
            assert not banner.is_displayed(), "offline, the page's engine answers: nothing to report"
            self.d.save_screenshot(os.path.join(self.args.shots, "offline-expenses-nb.png"))

            # Reload with formd down: the page comes from the service worker, the values are kept.
            self.reload_offline()
            assert p.value("employee_name") == "Kari Nordmann"
            assert [e.get_attribute("data-section") for e in self.d.find_elements(By.CSS_SELECTOR, '[data-page-form] [data-section^="items["]')] == ["items[0]", "items[1]"]
            assert p.value("items[0].justification") == "Nattbuss var innstilt" and p.visible("items[0].justification")
            assert p.value("total") == "450.5" and p.shown("total") == "450,50", (p.value("total"), p.shown("total"))
            p.check_matches_formd()

            # Submit offline: queued (in the form's language), kept across a reload.
            self.click_submit()
            WebDriverWait(self.d, 10).until(lambda d: self.status()[0] == "queued")
            assert self.status()[1] == "I kø: sendes så snart serveren kan nås.", self.status()
            self.d.save_screenshot(os.path.join(self.args.shots, "offline-queued-nb.png"))
            # The form alone, whole, as docs/images/formd-offline.png shows it (formd stopped, reloaded).
            self.d.set_window_size(900, 2600)
            try:
                self.d.execute_script("window.scrollTo(0, 0)")
                self.d.find_element(By.CSS_SELECTOR, "[data-page-form]").screenshot(os.path.join(self.args.shots, "offline-form-nb.png"))
            finally:
                self.d.set_window_size(1400, 1000)
            self.reload_offline()
            WebDriverWait(self.d, 10).until(lambda d: self.status()[0] == "queued")

            # formd is back on the same port: the queued submit is sent by itself and answered.
            server = self.offline_server(port=port)
            WebDriverWait(self.d, 45).until(lambda d: self.status()[0] in ("valid", "invalid"))
            assert self.status()[0] == "invalid", self.status()  # the approver is missing
            assert self.errors_shown(p), "the verdict's errors are shown, as for a submit online"
            assert not self.d.execute_script("return Object.keys(localStorage).some((k) => k.includes(':queued:'))"), "sent: no longer queued"
            assert p.value("employee_name") == "Kari Nordmann", "an invalid verdict keeps the values"
        finally:
            server.stop()
            self.d.get_log("browser")

    def test_offline_a_queued_submit_meets_a_changed_form(self):
        """A submit queued offline meets a 412 (formd came back with a changed definition): the
        page draws the new definition with the values kept, lists what changed, and sends nothing
        until the person sends again."""
        server = self.offline_server()
        port = server.port
        try:
            p = self.open_for_offline(server, "expenses", "en")
            p.type("employee_name", "Kari Nordmann")
            p.type("items[0].unit_price", "120")
            server.stop()
            self.click_submit()
            WebDriverWait(self.d, 10).until(lambda d: self.status()[0] == "queued")
            assert self.status()[1] == "Queued: it will be sent as soon as the server can be reached.", self.status()
            # The form changes while the page is offline: a new field, and a title changed.
            path = os.path.join(self.offline_forms, "expenses.json")
            d = json.load(open(path))
            fields = d["groups"][0]["sections"][0]["fields"]
            fields.append({"id": "cost_center", "title": {"en": "Cost center", "nb": "Koststed", "es": "Centro de coste"}, "type": "text"})
            json.dump(d, open(path, "w"), ensure_ascii=False)
            server = self.offline_server(port=port)
            WebDriverWait(self.d, 45).until(lambda d: self.status()[0] == "resubmit")
            notice = self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-notice]")
            assert notice.is_displayed() and "New: Cost center." in notice.text, notice.text
            assert p.value("employee_name") == "Kari Nordmann" and p.value("items[0].unit_price") == "120", "the values are kept"
            assert self.d.find_elements(By.CSS_SELECTOR, '[data-page-form] [data-field="cost_center"][data-formd-changed]')
            # The person has seen it and sends again: now the server answers.
            p.type("cost_center", "4711")
            self.click_submit()
            WebDriverWait(self.d, 10).until(lambda d: self.status()[0] in ("valid", "invalid"))
            assert p.value("employee_name") == "Kari Nordmann"
        finally:
            server.stop()
            self.d.get_log("browser")

    def test_kept_values_never_include_a_secret(self):
        """What was typed survives a reload, but never a password: not stored, so not restored; a
        queued submit with one asks for it again after a reload instead of sending without it."""
        server = self.offline_server(forms=("signup",))
        port = server.port
        try:
            p = self.open_for_offline(server, "signup", "en")
            p.type("email", "ola@example.com")
            p.type("password", "hunter2secret9")
            p.type("password_confirmation", "hunter2secret9")
            stored = self.d.execute_script("return JSON.stringify(Object.entries(localStorage))")
            assert "ola@example.com" in stored and "hunter2secret9" not in stored, stored
            server.stop()
            self.click_submit()
            WebDriverWait(self.d, 10).until(lambda d: self.status()[0] == "queued")
            assert "hunter2secret9" not in self.d.execute_script("return JSON.stringify(Object.entries(localStorage))")
            self.reload_offline()
            assert p.value("email") == "ola@example.com" and p.value("password") == "", (p.value("email"), p.value("password"))
            assert self.status()[0] == "reenter", self.status()
            # formd is back; the person enters the password again and sends: accepted, and then
            # nothing of the form is left on the device.
            server = self.offline_server(forms=("signup",), port=port)
            p.type("username", "ola_n")
            p.type("password", "hunter2secret9")
            p.type("password_confirmation", "hunter2secret9")
            self.d.find_element(By.CSS_SELECTOR, '[data-page-form] [data-field="terms"] input[type=checkbox]').click()
            p.idle()
            self.click_submit()
            WebDriverWait(self.d, 15).until(lambda d: self.status()[0] in ("valid", "invalid"))
            assert self.status()[0] == "valid", (self.status(), self.errors_shown(p))
            left = self.d.execute_script("return Object.keys(localStorage).filter((k) => k.startsWith('formd:'))")
            assert left == [], f"a valid submit clears what was kept: {left}"
        finally:
            server.stop()
            self.d.get_log("browser")  # the refused connections (read, so the next test starts clean)

    def test_keyboard_alone(self):
        p = self.open("signup")
        body = self.d.find_element(By.TAG_NAME, "body")
        body.click()
        # Tab from the form's first control and collect the order.
        p.control("email").click()
        seen = []
        for _ in range(30):
            a = self.d.switch_to.active_element
            seen.append(a.get_attribute("name") or a.get_attribute("type"))
            if a.get_attribute("type") == "submit":
                break
            a.send_keys(Keys.TAB)
        for name in ["email", "username", "full_name", "password", "password_confirmation", "terms", "newsletter"]:
            assert name in seen, (name, seen)
        assert seen[-1] == "submit", seen
        # Space toggles a switch, Enter in a text field submits.
        p.control("newsletter").send_keys(Keys.SPACE)
        p.idle()
        assert p.visible("newsletter_topic")
        p.control("username").send_keys("ola", Keys.ENTER)
        WebDriverWait(self.d, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-form-status]").get_attribute("data-status") == "invalid")

    def test_other_origins_allowed_and_refused(self):
        allowed = f"http://localhost:{self.origin.port}/embed.html"
        self.d.get(allowed)
        WebDriverWait(self.d, 10).until(lambda d: d.execute_script(IDLE_JS, "#signup"))
        p = Page(self.d, self.formd, "#signup")
        p.type("username", "Bad Name")
        p.leave("username")
        assert p.error("username"), "the embedded form is live"
        p.check_matches_formd()
        # The same page on an origin formd does not allow (127.0.0.1 is not localhost): the module
        # loads (the client's files are public), the API refuses, and the element says so.
        refused_origin = f"http://127.0.0.1:{self.origin.port}"
        self.d.get(refused_origin + "/embed.html")
        WebDriverWait(self.d, 10).until(lambda d: d.find_element(By.ID, "signup").get_attribute("data-formd-failed"))
        host = self.d.find_element(By.ID, "signup")
        assert host.get_attribute("data-formd-failed") == "origin", host.get_attribute("data-formd-failed")
        assert host.find_element(By.CSS_SELECTOR, ".formd-failed-text").text == "This form cannot be shown on this page."
        detail = host.find_element(By.CSS_SELECTOR, ".formd-failed-details p").get_attribute("textContent")
        assert f'Add "{refused_origin}" to its cors.allowed_origins' in detail, detail
        assert not self.d.find_elements(By.CSS_SELECTOR, "#signup form"), "no form without the API"
        assert "Loading" not in host.text, "the fallback and loading texts are replaced"
        assert any("cors.allowed_origins" in m and refused_origin in m for m in console_errors(self.d)), console_errors(self.d)
        r = self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
fetch(arguments[0] + 'forms/signup/evaluate', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'})
  .then((r) => done('answered ' + r.status), (e) => done('refused: ' + e.name));""", self.formd.base)
        assert r.startswith("refused"), r
        # A server that is down is not reported as a refused origin.
        self.origin_files["/down.html"] = b"""<!doctype html><html lang="nb"><head><meta charset="utf-8"><title>down</title></head><body>
<div id="down">Skjemaet lastes ...</div><script type="module">
import { render } from "%s";
render(document.getElementById("down"), "signup", { server: "http://127.0.0.1:9/", locale: "nb" }).catch(() => {});
</script></body></html>""" % (self.formd.base + "client/formd.js").encode()
        self.d.get(refused_origin + "/down.html")
        WebDriverWait(self.d, 10).until(lambda d: d.find_element(By.ID, "down").get_attribute("data-formd-failed"))
        down = self.d.find_element(By.ID, "down")
        assert down.get_attribute("data-formd-failed") == "network", down.get_attribute("data-formd-failed")
        assert down.find_element(By.CSS_SELECTOR, ".formd-failed-text").text == "Skjemaet kunne ikke lastes. Prøv igjen senere."

    def test_plain_html_forms_without_javascript(self):
        """A <form> with no script at all posts to formd, urlencoded and multipart: a checked
        checkbox (on) is true, an unchecked one false, and the browser follows the 303."""
        for enctype in ["application/x-www-form-urlencoded", "multipart/form-data"]:
            self.origin_files["/plain.html"] = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>plain</title></head><body>
<form method="post" action="{self.formd.base}forms/signup/validate" enctype="{enctype}">
<input name="email" value="ola@example.com"><input name="username" value="ola_n">
<input type="password" name="password" value="hemmelig1">
<input type="password" name="password_confirmation" value="hemmelig1">
<input type="hidden" name="terms" value="false"><input type="checkbox" name="terms" id="terms">
<input type="checkbox" name="newsletter" id="newsletter">
<button type="submit">Send</button></form></body></html>""".encode()
            plain = f"http://localhost:{self.origin.port}/plain.html"
            self.d.get(plain)
            self.d.find_element(By.ID, "terms").click()
            self.d.find_element(By.CSS_SELECTOR, "button").click()
            WebDriverWait(self.d, 10).until(lambda d: "/thanks.html" in d.current_url)
            assert self.d.current_url.endswith("/thanks.html?form=signup"), (enctype, self.d.current_url)
            self.d.get(plain)
            self.d.find_element(By.CSS_SELECTOR, "button").click()
            WebDriverWait(self.d, 10).until(lambda d: "/fix.html" in d.current_url)
            assert self.d.current_url.endswith("/fix.html?form=signup&fields=terms"), (enctype, self.d.current_url)

    def test_workshop_multiple_choice(self):
        """Checkboxes of a multi_select: the list formd computes, option targets, counts, labels."""
        p = self.open("workshop")
        assert not p.visible("recording_consent") and not p.visible("dietary_needs")
        p.choose("sessions", ["perf"])
        assert p.visible("recording_consent"), "the perf option shows the consent switch"
        answer = p.check_matches_formd()
        assert answer["values"]["sessions"] == ["perf"] and answer["values"]["session_count"] == 1
        assert answer["labels"]["sessions"] == ["Measuring performance"]
        assert p.error("sessions") == "", "no error while the person is still choosing"
        p.leave("sessions")
        assert "2" in p.error("sessions"), "min_selections once the choice is left"
        p.choose("sessions", ["perf", "swift", "a11y", "i18n"])
        assert "3" in p.error("sessions"), "max_selections"
        p.choose("sessions", ["swift", "a11y"])
        assert not p.visible("recording_consent") and p.error("sessions") == ""
        p.choose("extras", ["dinner", "diet"])
        assert p.visible("dietary_needs")
        answer = p.check_matches_formd()
        assert answer["values"]["extras"] == ["dinner", "diet"] and answer["values"]["total"] == 60
        p.choose("extras", [])
        answer = p.check_matches_formd()
        assert answer["values"]["extras"] == [], "unticking every box chooses nothing (the default does not come back)"
        assert self.d.execute_script("return document.querySelectorAll('[data-field=extras] input:checked').length") == 0

    def test_plain_html_form_with_a_multiple_choice(self):
        """Checkboxes sharing a name and a <select multiple> post repeated keys, urlencoded and
        multipart; none ticked is nothing chosen."""
        for enctype in ["application/x-www-form-urlencoded", "multipart/form-data"]:
            self.plain_multi(enctype)

    def plain_multi(self, enctype):
        self.origin_files["/plain-multi.html"] = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>plain</title></head><body>
<form method="post" action="{self.formd.base}forms/workshop/validate" enctype="{enctype}">
<input name="name" value="Kari"><input name="email" value="kari@example.no">
<input type="checkbox" name="sessions" value="swift" id="s1"><input type="checkbox" name="sessions" value="forms" id="s2">
<select name="extras" multiple id="extras"><option value="lunch">Lunch</option><option value="dinner">Dinner</option><option value="book">Book</option></select>
<button type="submit">Send</button></form></body></html>""".encode()
        plain = f"http://localhost:{self.origin.port}/plain-multi.html"
        self.d.get(plain)
        self.d.find_element(By.ID, "s1").click()
        self.d.find_element(By.ID, "s2").click()
        Select(self.d.find_element(By.ID, "extras")).select_by_value("book")
        Select(self.d.find_element(By.ID, "extras")).select_by_value("dinner")
        self.d.find_element(By.CSS_SELECTOR, "button").click()
        WebDriverWait(self.d, 10).until(lambda d: "/thanks.html" in d.current_url)
        assert self.d.current_url.endswith("/thanks.html?form=workshop"), self.d.current_url
        self.d.get(plain)
        self.d.find_element(By.ID, "s1").click()
        self.d.find_element(By.CSS_SELECTOR, "button").click()
        WebDriverWait(self.d, 10).until(lambda d: "/fix.html" in d.current_url)
        assert self.d.current_url.endswith("/fix.html?form=workshop&fields=sessions"), self.d.current_url

    def test_visibility_mutant_is_caught(self):
        """The renderer with its visibility handling broken: the oracle must notice."""
        source = urllib.request.urlopen(self.formd.base + "client/formd.js").read().decode()
        mutant = source.replace("entry.wrapper.hidden = !st.visible;", "entry.wrapper.hidden = false;")
        assert mutant != source, "the mutation point moved: update this test"
        self.origin_files["/mutant/formd.js"] = mutant.replace(
            'new URL("../", import.meta.url).href', json.dumps(self.formd.base)).encode()
        self.origin_files["/mutant.html"] = self.origin_files["/embed.html"].replace(
            (self.formd.base + "client/formd.js").encode(), b"/mutant/formd.js")
        self.d.get(f"http://localhost:{self.origin.port}/mutant.html")
        WebDriverWait(self.d, 10).until(lambda d: d.execute_script(IDLE_JS, "#signup"))
        p = Page(self.d, self.formd, "#signup")
        try:
            p.check_matches_formd()
        except AssertionError as e:
            assert "newsletter_topic" in str(e), str(e)
            return
        raise AssertionError("a renderer that never hides a field passed the visibility check")


    # -- the first hour: what a person sees before and while they act

    def test_a_fresh_form_shows_no_error(self):
        """No error before the person acts: every bundled form opens without error text, invalid
        markers or banner, in every locale."""
        for locale in ["en", "nb", "es"]:
            for form in FORMS:
                p = self.open(form, locale)
                assert self.errors_shown(p) == {}, f"{form} ({locale}): {self.errors_shown(p)}"
                marked = self.d.execute_script("return document.querySelectorAll('[data-page-form] [data-invalid], [data-page-form] [aria-invalid]').length")
                assert marked == 0, f"{form} ({locale}): {marked} controls marked invalid"
                assert not self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-message]").is_displayed()
                assert self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-status]").text == ""

    def test_min_instances_rows_are_there_at_open_and_the_first_added_is_0(self):
        p = self.open("expenses")
        rows = [e.get_attribute("data-section") for e in self.d.find_elements(By.CSS_SELECTOR, '[data-page-form] [data-section^="items["]')]
        assert rows == ["items[0]"], rows
        assert p.control("items[0].description").get_attribute("name") == "items[0].description"
        # The same form served with min_instances 2, then without any: two rows at open; none,
        # and the first one added is items[0] (the definition is rewritten on its way in).
        for minimum, expected in [(2, ["items[0]", "items[1]"]), (None, [])]:
            self.d.execute_async_script("""
const [minimum, done] = [arguments[0], arguments[arguments.length - 1]];
document.getElementById('rewritten')?.remove();
const host = document.createElement('div'); host.id = 'rewritten'; document.body.append(host);
import('/client/formd.js').then(async (m) => {
  const rewrite = async (url, init) => {
    const r = await fetch(url, init);
    if ((init.method || 'GET') !== 'GET' || !/\\/forms\\/expenses(\\?|$)/.test(url)) return r;
    const def = await r.json();
    for (const g of def.groups) for (const s of g.sections) if (s.id === 'items') {
      if (minimum === null) delete s.min_instances; else s.min_instances = minimum;
    }
    return new Response(JSON.stringify(def), {status: r.status, headers: r.headers});
  };
  // keep: false: both rewrites share the element and the version, so the second would draw the
  // instances kept from the first (docs/CLIENT.md, "Offline"); here each opens fresh.
  await m.render(host, 'expenses', {fetch: rewrite, locale: 'en', keep: false});
  done();
});""", minimum)
            q = Page(self.d, self.formd, "#rewritten")
            q.idle()
            rows = [e.get_attribute("data-section") for e in self.d.find_elements(By.CSS_SELECTOR, '#rewritten [data-section^="items["]')]
            assert rows == expected, (minimum, rows)
            if minimum is None:
                assert q.error("items") == "", "the server's min_instances error waits until the person acts"
                self.d.find_element(By.CSS_SELECTOR, '#rewritten [data-add-instance="items"]').click()
                q.idle()
                rows = [e.get_attribute("data-section") for e in self.d.find_elements(By.CSS_SELECTOR, '#rewritten [data-section^="items["]')]
                assert rows == ["items[0]"], f"the first instance is items[0], not {rows}"
                assert self.d.switch_to.active_element.get_attribute("name") == "items[0].description"
                q.check_matches_formd()

    def test_outputs_are_not_editable(self):
        """Every field with a formula is an <output>: no input, not focusable, formatted."""
        for form in FORMS:
            p = self.open(form)
            r = p.js("""
const out = {computed: [], editable: [], focusable: []};
for (const [id, e] of v.fields) {
  if (!e.computed) continue;
  out.computed.push(id);
  if (e.wrapper.querySelector('input, select, textarea')) out.editable.push(id);
  const o = e.wrapper.querySelector('output');
  if (!o) out.editable.push(id + ' (no output)');
  else { o.focus(); if (document.activeElement === o) out.focusable.push(id); }
}
return out;""")
            assert r["editable"] == [] and r["focusable"] == [], f"{form}: {r}"
            if form in ("employment", "expenses", "workshop", "feedback-i18n", "customer-no"):
                assert r["computed"], f"{form} has computed fields"

    def test_inputs_carry_autocomplete_and_inputmode(self):
        want = {
            "signup": {"email": ("email", "email", "email"), "username": ("text", "username", None),
                       "password": ("password", "new-password", None), "password_confirmation": ("password", "new-password", None),
                       "full_name": ("text", "name", None)},
            "customer-no": {"phone_number": ("tel", "tel", None), "postal_code": ("text", "postal-code", "numeric"),
                            "first_name": ("text", "given-name", None), "last_name": ("text", "family-name", None),
                            "address": ("text", "street-address", None), "city": ("text", "address-level2", None),
                            "social_security_number": ("text", "off", "numeric")},
            "expenses": {"items[0].unit_price": ("text", None, "decimal"), "items[0].quantity": ("text", None, "numeric"),
                         "advance": ("text", None, "decimal")},
            "registration-pureform": {"email": ("email", "email", "email"), "password": ("password", "new-password", None),
                                      "pin": ("text", "off", "numeric")},
        }
        for form, fields in want.items():
            p = self.open(form)
            for fid, (typ, autocomplete, inputmode) in fields.items():
                c = p.control(fid)
                got = (c.get_attribute("type"), c.get_dom_attribute("autocomplete"), c.get_dom_attribute("inputmode"))
                assert got == (typ, autocomplete, inputmode), f"{form}.{fid}: {got}"

    def test_locale_switch_changes_every_text_and_formats(self):
        p = self.open("expenses", "en")
        def texts():
            return p.js("""
const q = (s) => v.form.querySelector(s);
return {submit: q('[data-formd-submit]').textContent, add: q('[data-add-instance]').textContent,
  remove: q('[data-remove-instance]').textContent, label: q('[data-field=employee_name] label').textContent,
  lang: v.form.getAttribute('lang'), notice: q('[data-form-notice]').hidden ? '' : q('[data-form-notice]').textContent,
  all: v.element.innerText};""")
        en = texts()
        assert (en["submit"], en["add"], en["remove"], en["label"]) == ("Submit", "Add expense", "Remove", "Employee"), en
        p.type("items[0].unit_price", "1000")
        self.d.find_element(By.CSS_SELECTOR, '[data-add-instance="items"]').click()
        p.idle()
        p.type("items[1].unit_price", "550")
        assert p.shown("total") == "1,550.00", p.shown("total")
        for locale, words, total in [("nb", ("Send", "Legg til utgift", "Fjern", "Ansatt"), "1 550,00"),
                                     ("es", ("Enviar", "Añadir gasto", "Quitar", "Empleado"), "1550,00")]:
            Select(self.d.find_element(By.CSS_SELECTOR, "[data-page-locale]")).select_by_value(locale)
            WebDriverWait(self.d, 5).until(lambda d: texts()["lang"] == locale)
            p.idle()
            t = texts()
            assert (t["submit"], t["add"], t["remove"], t["label"]) == words, (locale, t)
            assert t["notice"] == "", f"the expense report is translated into {locale}: {t['notice']}"
            assert p.shown("total") == total, (locale, p.shown("total"))
            assert p.value("items[0].unit_price") == "1000" and p.value("items[1].unit_price") == "550", "values are kept"
            assert "formd" not in t["all"].lower(), t["all"]
        # Words of the submit verdict follow the locale too.
        self.submit_and_wait(p, "invalid")
        assert self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-status]").text == "Corrija los campos marcados a continuación."
        assert self.errors_shown(p)["employee_name"] == "El campo Empleado es obligatorio.", self.errors_shown(p)
        # A form written in one language: after a switch the page says it is not translated.
        p = self.open("customer-no", "nb")
        assert not self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-notice]").is_displayed()
        Select(self.d.find_element(By.CSS_SELECTOR, "[data-page-locale]")).select_by_value("es")
        notice = self.d.find_element(By.CSS_SELECTOR, "[data-page-form] [data-form-notice]")
        WebDriverWait(self.d, 5).until(lambda d: notice.is_displayed())
        assert notice.text == "Este formulario no está traducido; se muestra tal como está escrito.", notice.text
        assert self.d.find_element(By.CSS_SELECTOR, "[data-page-form] form").get_attribute("data-untranslated") is not None

    def test_phone_viewport_has_no_horizontal_scroll(self):
        """The page and an embedded form fit a 390 px wide phone: nothing scrolls sideways."""
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        try:
            overflow = "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];"
            for form in FORMS:
                p = self.open(form)
                self.submit_and_wait(p, "invalid")  # error texts on screen too
                sw, cw = self.d.execute_script(overflow)
                assert cw == 390 and sw <= cw, f"{form}: scrollWidth {sw} > clientWidth {cw}"
                self.d.save_screenshot(os.path.join(self.args.shots, f"phone-{form}.png"))
            p = self.open("expenses", "nb")
            p.type("employee_name", "Kari Nordmann")
            p.type("items[0].description", "Taxi til flyplassen")
            p.type("items[0].unit_price", "1550")
            self.d.find_element(By.CSS_SELECTOR, '[data-add-instance="items"]').click()
            p.idle()
            p.type("items[1].description", "Hotell")
            p.type("items[1].unit_price", "1249,5")
            p.leave("items[1].unit_price")
            assert p.shown("total") == "2 799,50", p.shown("total")
            self.d.execute_script("document.querySelector('[data-page-form] [data-section=\"items[1]\"]').scrollIntoView()")
            self.d.save_screenshot(os.path.join(self.args.shots, "phone-expenses-nb.png"))
            self.d.get(f"http://localhost:{self.origin.port}/embed.html")
            WebDriverWait(self.d, 10).until(lambda d: d.execute_script(IDLE_JS, "#signup"))
            sw, cw = self.d.execute_script(overflow)
            assert sw <= cw, f"embedded: scrollWidth {sw} > clientWidth {cw}"
        finally:
            self.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def test_remote_rule_pending_state_and_late_answers(self):
        """A field with a remote rule (API.md §11.6): data-pending and aria-busy while the check
        runs, the server's verdict shown after it; a slow answer to an older value never replaces
        the answer to the newer one; with the page's engine the server is still asked."""
        asked = []

        class Upstream(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                asked.append(body["value"])
                if str(body["value"]).startswith("slow"):
                    time.sleep(1.2)
                out = json.dumps({"valid": False, "code": "taken", "message": "That name is taken."}
                                 if str(body["value"]).startswith(("slow", "taken")) else {"valid": True}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, *a):
                pass

        up = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
        threading.Thread(target=up.serve_forever, daemon=True).start()
        folder = tempfile.mkdtemp()
        with open(os.path.join(folder, "remote.json"), "w") as f:
            json.dump([{"id": "g", "sections": [{"id": "s", "fields": [
                {"id": "username", "title": "Username", "type": "text", "validations": {"min_length": 3, "remote": "users"}},
                {"id": "note", "title": "Note", "type": "text"}]}]}], f)
        formd = Formd(self.args.bin, {"FORMD_LOG_LEVEL": "warning", "FORMD_VALIDATORS_REMOTE": json.dumps(
            {"users": {"url": f"http://127.0.0.1:{up.server_address[1]}/check", "timeout_ms": 3000}})}, forms=folder)
        try:
            for local in (False, True):
                self.d.get(formd.base + "?form=remote")
                WebDriverWait(self.d, 10).until(lambda d: d.execute_script(IDLE_JS, "[data-page-form]"))
                self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
import('/client/formd.js').then(async (m) => {
  const host = document.createElement('div'); host.id = 'remote-host'; document.body.append(host);
  const view = await m.render(host, 'remote', {locale: 'en', local: arguments[0], keep: false});
  if (view.session.ready) await view.session.ready;
  done(true);
});""", local)
                before = len(asked)
                field = self.d.find_element(By.CSS_SELECTOR, '#remote-host [data-field="username"]')
                control = field.find_element(By.CSS_SELECTOR, "input")
                # An older value with a slow answer, then a newer one with a quick answer.
                control.send_keys("slow1" + Keys.TAB)  # touched: its errors show from now on
                WebDriverWait(self.d, 5).until(lambda d: field.get_attribute("data-pending") is not None)
                assert control.get_attribute("aria-busy") == "true"
                control.click()
                control.send_keys(Keys.BACKSPACE * 5 + "olaf")
                WebDriverWait(self.d, 10).until(lambda d: d.execute_script(IDLE_JS, "#remote-host"))
                time.sleep(0.3)
                assert d_idle(self.d), "idle"
                assert field.get_attribute("data-pending") is None, "the newest answer ended the pending state"
                assert control.get_attribute("aria-busy") is None
                err = field.find_element(By.CSS_SELECTOR, "[data-error-for]").text
                assert err == "", f"the late 'taken' of slow1 must not stay: {err!r} (local={local})"
                assert "olaf" in asked[before:], (asked, local)
                # A refused value shows the validator's message.
                control.send_keys(Keys.BACKSPACE * 4 + "taken")
                try:
                    WebDriverWait(self.d, 10).until(
                        lambda d: field.find_element(By.CSS_SELECTOR, "[data-error-for]").text == "That name is taken.")
                except TimeoutException:
                    raise AssertionError(f"local={local}: error {field.find_element(By.CSS_SELECTOR, '[data-error-for]').text!r}, "
                                         f"value {control.get_attribute('value')!r}, asked {asked}")
                # Too short: local checks fail first, the validator is not asked.
                control.send_keys(Keys.BACKSPACE * 5 + "ab")
                WebDriverWait(self.d, 10).until(lambda d: "at least 3" in field.find_element(By.CSS_SELECTOR, "[data-error-for]").text)
                assert "ab" not in asked and "a" not in asked, asked
                # remoteDebounce: a burst of keystrokes asks once, for the last value.
                assert not any(v in asked for v in ("slo", "slow", "ola", "tak", "take")), asked
        finally:
            formd.stop()
            up.shutdown()

    def test_hostile_definitions_never_crash_the_renderer(self):
        """Definitions with wrong types and odd ids everywhere render (or say they cannot); no
        uncaught error reaches the console."""
        self.open("signup")
        r = self.d.execute_async_script("""
const done = arguments[arguments.length - 1];
const defs = [
  {title: {xx: 1}, groups: [{id: 'g', title: 5, sections: [
    {id: 'items', type: 'dynamic', min_instances: 1e9, max_instances: -3},
    {id: 's', fields: [null, 7, {id: ']'}, {id: 'a', type: 5, values: 'x', validations: 7, size: {width: 'w'}},
      {id: 'b', type: 'select', values: [null, {id: {}}, {title: 'no id'}]}, {id: 'c', formula: 'x', type: 'float', title: '%'},
      {id: 'd', type: 'email', input_type: {}}, {id: 'e.f[0].]', type: 'text'}]}]}],
   templates: {sections: [{id: 'items', fields: [{id: 'items[:index].x', type: 'count'}, 'junk']}]}},
  [{'<x>': null}, {'<formd>': 5}],
  'a string', null, {groups: 'no'},
];
import('/client/formd.js').then(async (m) => {
  const out = [];
  for (const [i, def] of defs.entries()) {
    const host = document.createElement('div'); host.id = 'hostile' + i; document.body.append(host);
    const fake = (url, init) => Promise.resolve(new Response(
      JSON.stringify((init.method || 'GET') === 'GET' ? def : {form: 'x', values: {c: 12.5, 'items[0].x': 'NaN'}, fields: {c: {visible: true, enabled: true}}, sections: {}, errors: [null, 5, {field: ']'}, {section: 'items', message: 'm'}]}),
      {status: 200, headers: {'Content-Type': 'application/json', ETag: '"1"'}}));
    try { await m.render(host, 'x', {fetch: fake, locale: 'en'}); out.push('rendered'); }
    catch (e) { out.push('failed:' + host.getAttribute('data-formd-failed')); }
  }
  done(out);
});""")
        assert all(x == "rendered" or x.startswith("failed:") for x in r), r
        assert r[0] == "rendered", r
        rows = self.d.find_elements(By.CSS_SELECTOR, "#hostile0 [data-section^='items[']")
        assert len(rows) <= 100, "min_instances is bounded"
        errs = [m for m in console_errors(self.d) if "Uncaught" in m or "TypeError" in m]
        assert errs == [], errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/formd"))
    ap.add_argument("--shots", default=os.path.join(ROOT, ".build/browser-screenshots"))
    ap.add_argument("--only")
    args = ap.parse_args()
    suite = Suite(args)
    names = [n for n in dir(suite) if n.startswith("test_") and (not args.only or args.only in n)]
    failed = 0

    def too_long(*_):
        raise TimeoutError("the test took over 90 s (a page busy in a loop blocks every driver call)")

    signal.signal(signal.SIGALRM, too_long)
    try:
        for name in names:
            t = time.time()
            try:
                signal.alarm(90)
                getattr(suite, name)()
                signal.alarm(0)
                print(f"ok   {name} ({time.time() - t:.1f}s)")
            except Exception:
                signal.alarm(0)
                failed += 1
                print(f"FAIL {name} ({time.time() - t:.1f}s)")
                traceback.print_exc()
                suite.d.save_screenshot(os.path.join(args.shots, f"FAIL-{name}.png"))
    finally:
        suite.close()
    print(f"{len(names) - failed} passed, {failed} failed (screenshots in {args.shots})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
