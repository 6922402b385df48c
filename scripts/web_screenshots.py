"""Screenshots of every page for the README, taken with Debian chromium on a running server.

    paperscope --db icml.db serve --port 8766 &
    .venv/bin/python scripts/web_screenshots.py http://127.0.0.1:8766 --collection "ICML 2024" --out docs/screenshots

PNGs are saved with a 256-colour palette to keep them small.
"""
from __future__ import annotations

import argparse
import io
from pathlib import Path
from urllib.parse import quote_plus

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def save(page, path: Path) -> None:
    from PIL import Image

    png = page.screenshot(full_page=False)
    Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
        path, optimize=True)
    print(f"{path} ({path.stat().st_size // 1024} KB)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--collection", default="ICML 2024")
    ap.add_argument("--other", default="ICLR 2020", help="second collection for the compare page")
    ap.add_argument("--query", default="diffusion models for protein design")
    ap.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    ap.add_argument("--trend", default=None, help="also /trends for these words (with --trend-venue)")
    ap.add_argument("--trend-venue", default=None)
    ap.add_argument("--only-trends", action="store_true", help="take only the trends page")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    c = quote_plus(args.collection)
    base = args.url.rstrip("/")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 780})
        page.set_default_timeout(120_000)
        if args.trend:
            page.goto(f"{base}/trends?q={quote_plus(args.trend)}&venue={quote_plus(args.trend_venue or '')}")
            save(page, args.out / "trends.png")
            if args.only_trends:
                browser.close()
                return
        page.goto(f"{base}/")
        save(page, args.out / "home.png")
        page.goto(f"{base}/c/{quote_plus(args.collection).replace('+', '%20')}")
        save(page, args.out / "collection.png")
        page.goto(f"{base}/search?collection={c}&q={quote_plus(args.query)}")
        page.locator("#results article.card details.why summary").first.click()
        save(page, args.out / "search.png")
        page.locator("#results article.card h3 a").first.click()
        page.locator("body[data-math='done']").wait_for(state="attached")
        save(page, args.out / "paper.png")
        page.goto(f"{base}/topics?collection={c}")
        save(page, args.out / "topics.png")
        page.goto(f"{base}/topics?collection={c}&topic=0#topic-papers")
        save(page, args.out / "topics-topic.png")
        page.goto(f"{base}/map?collection={c}&q={quote_plus(args.query)}")
        page.locator("#map[data-ready='1']").wait_for(state="attached")
        page.wait_for_timeout(1500)
        save(page, args.out / "map.png")
        page.goto(f"{base}/compare?a={c}&b={quote_plus(args.other)}")
        save(page, args.out / "compare.png")
        page.goto(f"{base}/lang/zh?next=/c/{quote_plus(args.collection).replace('+', '%20')}")
        save(page, args.out / "collection-zh.png")
        page.goto(f"{base}/lang/en?next=/")
        browser.close()


if __name__ == "__main__":
    main()
