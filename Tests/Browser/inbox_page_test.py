#!/usr/bin/env python3
"""The crash inbox's page of `symbolicate serve --inbox` in a real browser (Debian's chromium,
headless, through selenium): reports are sent to POST /v1/reports, the inbox lists their groups,
a group opens by keyboard with its diagnosis and frames, it is marked resolved from the page,
a report of a later version reopens it as regressed, and the page reads in Japanese. Screenshots
(inbox-page.png, inbox-group.png, inbox-regressed.png, inbox-page-ja.png) are kept in
.build/artifacts/ for CI.

Usage: inbox_page_test.py PATH/TO/symbolicate   (run from the package root; `make test-browser` does)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from page_test import ARTIFACTS, ROOT, browser, check, chromium, results

TOKEN = "inbox-page-token"


def start_server(binary, work):
    env = dict(os.environ, SYMBOLICATE_SERVE_TOKEN=TOKEN)
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--store", os.path.join(work, "store"), "--inbox", os.path.join(work, "inbox.sqlite"),
         "--debug-files", os.path.join(ROOT, "Fixtures/dsyms")],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        found = re.search(r"listening on (http://127\.0\.0\.1:\d+/)", line)
        if found:
            return process, found.group(1)
    process.kill()
    raise SystemExit("inbox page test: the server did not start")


def report(name, version="1.0 (1)", launch=0):
    """A fixture text report as another launch of `version` states it."""
    text = open(os.path.join(ROOT, "Fixtures/reports", name), encoding="utf-8").read()
    text = text.replace("Version:             1.0 (1)", "Version:             " + version)
    return text.replace("FE3A2502-0D66-43A3-A3C6-10A3BBB7F8F4", "FE3A2502-0D66-43A3-A3C6-%012X" % launch).encode()


def send(url, body):
    request = urllib.request.Request(url + "v1/reports", data=body, method="POST", headers={
        "Authorization": "Bearer " + TOKEN, "Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())["reports"][0]


def main():
    if sys.platform != "linux" and (chromium() is None or shutil.which("chromedriver") is None):
        print("inbox page test: skipped: no chromium and chromedriver here; Linux CI runs it")
        return 0
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    os.makedirs(ARTIFACTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="symbolicate-inbox-page-")
    server, url = start_server(binary, work)
    driver = None
    try:
        trap = send(url, report("swift-trap.crash"))
        send(url, report("swift-trap.crash", launch=1))
        send(url, report("null-deref.crash"))
        check("reports are stored", trap["stored"] and trap["newGroup"])

        driver = browser(work)
        driver.get(url + "inbox")
        WebDriverWait(driver, 60).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rows tr")) == 2)
        rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#rows tr")]
        check("the inbox lists two groups, most reports first", rows[0].startswith("2") and "JSONScanner.field" in rows[0], " | ".join(rows))
        caption = driver.find_element(By.ID, "list-caption").text
        check("the table says its page and total", "2 groups" in caption, caption)
        spark = driver.find_element(By.CSS_SELECTOR, "#rows tr svg").get_attribute("aria-label")
        check("the sparkline reads as text", "1.0 (1): 2" in spark, spark)
        driver.save_screenshot(os.path.join(ARTIFACTS, "inbox-page.png"))

        # The group, opened from the keyboard: its link focused and Enter pressed.
        link = driver.find_element(By.CSS_SELECTOR, "#rows tr a")
        link.send_keys(Keys.ENTER)
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "group").is_displayed()
                                        and d.find_element(By.ID, "group-title").text != "")
        title = driver.find_element(By.ID, "group-title")
        check("the group's title has focus", driver.switch_to.active_element == title)
        check("the diagnosis is shown", "Unexpectedly found nil" in driver.find_element(By.ID, "diagnosis").text,
              driver.find_element(By.ID, "diagnosis").text)
        frames = driver.find_element(By.ID, "frames").text
        check("the crashed thread's frames are shown", "JSONScanner.field" in frames and "Profile.swift:28" in frames, frames[:300])
        check("the examples are listed", len(driver.find_elements(By.CSS_SELECTOR, "#example-rows tr")) == 2)
        check("the address bar names the group", "group=" + trap["group"] in driver.current_url, driver.current_url)
        driver.save_screenshot(os.path.join(ARTIFACTS, "inbox-group.png"))

        # Resolved from the page (the token typed in its field), in 1.1.
        driver.find_element(By.ID, "token").send_keys(TOKEN)
        driver.find_element(By.ID, "fixed").send_keys("1.1 (2)")
        driver.find_element(By.ID, "fixed").send_keys(Keys.ENTER)
        WebDriverWait(driver, 60).until(lambda d: "Resolved in 1.1 (2)" in d.find_element(By.ID, "group-facts").text)
        check("the group is marked resolved", "Resolved" in driver.find_element(By.ID, "status").text,
              driver.find_element(By.ID, "status").text)

        # A report of 1.2 reopens it: the inbox filtered to regressed groups shows it.
        again = send(url, report("swift-trap.crash", version="1.2 (3)", launch=2))
        check("a later version is a regression", again["regression"], json.dumps(again))
        driver.find_element(By.ID, "back").click()
        Select(driver.find_element(By.ID, "state")).select_by_value("regressed")
        driver.find_element(By.ID, "apply").click()
        WebDriverWait(driver, 60).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rows tr")) == 1
                                        and "Regressed" in d.find_element(By.CSS_SELECTOR, "#rows tr").text)
        row = driver.find_element(By.CSS_SELECTOR, "#rows tr").text
        check("the regressed group is listed as such", "JSONScanner.field" in row and "Regressed" in row, row)
        driver.save_screenshot(os.path.join(ARTIFACTS, "inbox-regressed.png"))

        # Japanese: the page's words follow the language chosen.
        Select(driver.find_element(By.ID, "language")).select_by_value("ja")
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "apply").text == "表示")
        headers = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#groups th")]
        check("the inbox is Japanese", "件数" in headers and "状態" in headers and "再発" in driver.find_element(By.ID, "rows").text,
              ", ".join(headers))
        driver.save_screenshot(os.path.join(ARTIFACTS, "inbox-page-ja.png"))
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(1 for _, ok in results if ok)
    failed = len(results) - passed
    print("inbox page test: screenshots in .build/artifacts/ (inbox-page.png, inbox-group.png, inbox-regressed.png, inbox-page-ja.png)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
