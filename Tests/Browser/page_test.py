#!/usr/bin/env python3
"""The page of `symbolicate serve` in a real browser (Debian's chromium, headless, driven by
chromedriver through selenium): a fixture report is pasted, the symbolicated frame line and the
highlighted crashed thread are checked, the .crash download is compared byte for byte with what
`symbolicate -` prints for the same report, and screenshots (desktop and phone widths) are kept
in .build/artifacts/ for CI (serve-page.png, serve-page-crashed-thread.png, serve-page-phone.png).
A second server started with --source-root (a git checkout of Fixtures/src made here, tagged
v1.0 for the report's version) shows the crashing line's source on the page (serve-page-source.png).

Usage: page_test.py PATH/TO/symbolicate   (run from the package root; `make test` does)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT = os.path.join(ROOT, "Fixtures/reports/swift-trap.ips")
# CrashApp only: CrashKit is then an app image without a dSYM, listed on the page.
DSYMS = os.path.join(ROOT, "Fixtures/dsyms/CrashApp.app.dSYM")
ARTIFACTS = os.path.join(ROOT, ".build/artifacts")
FRAME = "static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]"

results = []


def check(name, condition, detail=""):
    results.append((name, bool(condition)))
    print(("ok     " if condition else "FAILED ") + name + ("" if condition or not detail else ": " + detail))


def start_server(binary, store, extra=()):
    env = dict(os.environ)
    env.pop("SYMBOLICATE_SERVE_TOKEN", None)
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--store", store, "--debug-files", DSYMS, *extra],
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
    raise SystemExit("page test: the server did not start")


def make_checkout(folder):
    """A git repository of the fixture sources (the dSYM's compile paths are /src/…), tagged v1.0."""
    shutil.copytree(os.path.join(ROOT, "Fixtures/src"), folder)
    env = dict(os.environ, GIT_AUTHOR_NAME="Ada Example", GIT_AUTHOR_EMAIL="ada@example.com",
               GIT_COMMITTER_NAME="Ada Example", GIT_COMMITTER_EMAIL="ada@example.com",
               GIT_AUTHOR_DATE="2024-02-01T10:00:00+0900", GIT_COMMITTER_DATE="2024-02-01T10:00:00+0900",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    for args in (["init", "-q", "-b", "main"], ["remote", "add", "origin", "https://github.com/example/CrashApp.git"],
                 ["add", "-A"], ["commit", "-q", "-m", "Require the identifier field"], ["tag", "v1.0"]):
        subprocess.check_call(["git", "-C", folder, *args], env=env)


def source_page(binary, work, downloads, report):
    """serve --source-root: the page shows the crashing line, marked, with its last change."""
    from selenium.webdriver.common.by import By

    checkout = os.path.join(work, "checkout")
    make_checkout(checkout)
    server, url = start_server(binary, os.path.join(work, "store-source"), ["--source-root", checkout])
    driver = None
    try:
        driver = browser(downloads)
        driver.get(url)
        submit(driver, report)
        section = driver.find_element(By.ID, "source")
        check("the source lines are shown", section.is_displayed())
        marked = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#source pre.source mark")]
        check("the crashing line is marked", any(line.endswith("| return value!") or "return value!" in line for line in marked),
              " / ".join(marked))
        check("its last change is said", "Require the identifier field" in section.text, section.text)
        links = [element.get_attribute("href") for element in driver.find_elements(By.CSS_SELECTOR, "#source h4 a")]
        check("the line links to the shipped commit", any(link.startswith("https://github.com/example/CrashApp/blob/") for link in links),
              ", ".join(links))
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", section)
        driver.save_screenshot(os.path.join(ARTIFACTS, "serve-page-source.png"))
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)


def submit(driver, text):
    """Pastes `text` and submits; waits for the answer or an error."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    area = driver.find_element(By.ID, "report")
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", area, text)
    driver.execute_script("document.getElementById('status').textContent = ''")
    driver.find_element(By.ID, "go").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "status").text not in ("", "Symbolicating…", "シンボル化しています…"))


# Homebrew's `chromium` cask installs an app bundle, not a command.
MAC_CHROMIUM = "/Applications/Chromium.app/Contents/MacOS/Chromium"


def chromium():
    """The chromium to drive: on PATH (Debian's), else the macOS app; None without one."""
    found = shutil.which("chromium")
    if found:
        return found
    return MAC_CHROMIUM if os.path.exists(MAC_CHROMIUM) else None


def browser(download_dir):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium() or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1600"]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {
        "download.default_directory": download_dir, "download.prompt_for_download": False,
        "safebrowsing.enabled": False})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})
    return driver


def main():
    # Off Linux (a Mac without the browser) the test is skipped, saying so; on Linux it is part
    # of `make test` and CI (scripts/setup.sh installs chromium and chromium-driver).
    if sys.platform != "linux" and (chromium() is None or shutil.which("chromedriver") is None):
        print("page test: skipped: no chromium and chromedriver here "
              "(macOS: brew install --cask chromium chromedriver); Linux CI runs it")
        return 0
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    try:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        raise SystemExit("page test: selenium is missing (scripts/setup.sh installs it with chromium and chromium-driver)")
    os.makedirs(ARTIFACTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="symbolicate-page-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    server, url = start_server(binary, os.path.join(work, "store"))
    driver = None
    try:
        report = open(REPORT, encoding="utf-8").read()
        # The CLI here runs in this checkout, whose Fixtures/src holds the fixture's sources: the
        # page (a server) shows no source lines, so neither may the CLI it is compared with.
        expected = subprocess.run([binary, "-", DSYMS], input=report, capture_output=True, text=True, cwd=ROOT,
                                  env=dict(os.environ, SYMBOLICATE_SOURCE_ROOT="none")).stdout
        check("the CLI symbolicates the fixture", FRAME in expected)

        driver = browser(downloads)
        driver.get(url)
        check("the page loads", driver.title == "symbolicate")
        area = driver.find_element(By.ID, "report")
        # Pasting: the report goes in through the clipboard's path (the value and an input
        # event), then the keyboard submits the form as a person would.
        driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", area, report)
        area.send_keys(Keys.CONTROL, Keys.END)
        driver.find_element(By.ID, "go").send_keys(Keys.ENTER)
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "result").is_displayed()
                                        or "error" in d.find_element(By.ID, "status").get_attribute("class"))
        status = driver.find_element(By.ID, "status").text
        check("the answer appears", driver.find_element(By.ID, "result").is_displayed(), status)

        text = driver.find_element(By.ID, "report-text").text
        check("the symbolicated frame line is shown", FRAME in text)
        headline = driver.find_element(By.ID, "headline").text
        check("the headline is shown", headline.startswith("Crashed: Thread 0 (main) in static JSONScanner.field(_:key:)"), headline)
        diagnosis = driver.find_element(By.ID, "diagnosis").text
        check("the explanation is shown", "Unexpectedly found nil" in diagnosis, diagnosis)
        crashed = driver.find_elements(By.ID, "crashed-thread")
        check("the crashed thread is marked", len(crashed) == 1 and crashed[0].text.startswith("Thread 0 Crashed:"))
        if crashed:
            background = crashed[0].value_of_css_property("background-color")
            check("the crashed thread is highlighted", background not in ("rgba(0, 0, 0, 0)", "transparent"), background)
            check("the symbolicated frame is in the crashed thread", FRAME in crashed[0].text)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", crashed[0])
            driver.save_screenshot(os.path.join(ARTIFACTS, "serve-page-crashed-thread.png"))
            driver.execute_script("window.scrollTo(0, 0)")
        bold = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#report-text strong.app")]
        check("app frames are bold", any(FRAME in line for line in bold) and all("CrashApp" in line or "CrashKit" in line for line in bold))
        missing = driver.find_element(By.ID, "image-list").text
        check("the image without a dSYM is listed", "CrashKit" in missing, missing)
        os.makedirs(ARTIFACTS, exist_ok=True)
        driver.save_screenshot(os.path.join(ARTIFACTS, "serve-page.png"))

        driver.find_element(By.CSS_SELECTOR, 'button[data-format="text"]').click()
        target = os.path.join(downloads, "symbolicated.crash")
        deadline = time.time() + 30
        while time.time() < deadline and not os.path.exists(target):
            time.sleep(0.1)
        time.sleep(0.3)
        downloaded = open(target, encoding="utf-8").read() if os.path.exists(target) else None
        check("the .crash download is what symbolicate - prints", downloaded == expected,
              "no file" if downloaded is None else "differs")

        # An .ips report offers .ips; a text report does not (it cannot be given as one).
        check(".ips is offered for an .ips report", driver.find_element(By.ID, "download-ips").is_displayed())
        submit(driver, open(os.path.join(ROOT, "Fixtures/reports/swift-trap.crash"), encoding="utf-8").read())
        check("a text report is symbolicated", driver.find_element(By.ID, "result").is_displayed())
        check(".ips is not offered for a text report", not driver.find_element(By.ID, "download-ips").is_displayed())
        # Asked anyway (the hidden button clicked by script): the API's message alone, no CLI flag.
        driver.execute_script("document.getElementById('download-ips').click()")
        WebDriverWait(driver, 60).until(lambda d: "error" in d.find_element(By.ID, "status").get_attribute("class"))
        error = driver.find_element(By.ID, "status").text
        check("the error names no CLI flag", "--format" not in error and "cannot be given as ips" in error, error)
        check("the error is not mixed with the headline", "Crashed:" not in error, error)
        # A later success replaces the error.
        driver.find_element(By.CSS_SELECTOR, 'button[data-format="text"]').click()
        WebDriverWait(driver, 60).until(lambda d: "error" not in d.find_element(By.ID, "status").get_attribute("class"))
        check("a later success clears the error", "error" not in driver.find_element(By.ID, "status").get_attribute("class"),
              driver.find_element(By.ID, "status").text)

        # A UUID mismatch names both identities, as the CLI does.
        submit(driver, open(os.path.join(ROOT, "Fixtures/reports/uuid-mismatch.ips"), encoding="utf-8").read())
        listed = driver.find_element(By.ID, "image-list").text
        uuids = set(re.findall(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", listed))
        check("a UUID mismatch shows both UUIDs", "CrashApp" in listed and len(uuids) >= 2
              and "4C4C443B-5555-3144-A1E9-455154CFFD57" in uuids, listed)

        # Japanese: the headings follow the language chosen.
        from selenium.webdriver.support.ui import Select
        Select(driver.find_element(By.ID, "language")).select_by_value("ja")
        submit(driver, report)
        headings = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#result h3, #result h4") if element.is_displayed()]
        check("the headings are Japanese", "考えられる原因" in headings and "次の手順" in headings and "レポート" in headings,
              ", ".join(headings))
        check("the button is Japanese", driver.find_element(By.ID, "go").text == "シンボル化")
        Select(driver.find_element(By.ID, "language")).select_by_value("en")
        check("and English again", driver.find_element(By.ID, "go").text == "Symbolicate")

        driver.set_window_size(390, 1400)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        check("the page fits a phone's width", width <= 390, str(width))
        driver.save_screenshot(os.path.join(ARTIFACTS, "serve-page-phone.png"))
        driver.quit()
        driver = None
        source_page(binary, work, downloads, report)
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(1 for _, ok in results if ok)
    failed = len(results) - passed
    print("page test: screenshots in .build/artifacts/ (serve-page.png, serve-page-crashed-thread.png, serve-page-phone.png, "
          "serve-page-source.png)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
