// Loads a `tessera-prof html` page in headless Chromium (Debian's, driven
// by playwright-core) the way a person opens it: from a file, with the
// network off. Prints what the page holds, one fact a line, for FileCheck:
// the charts drawn, the rows of each table, what sorting and filtering the
// op table does, and every console message or page error (there must be
// none). With --screenshot=PNG, saves the whole page.
//
// usage: node check-html.mjs PAGE.html --clients=DIR [--screenshot=PNG]
//        [--chromium=PATH]
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const a = args.find(x => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : fallback;
};
const page = args.find(x => !x.startsWith("--"));
const clients = opt("clients");
if (!page || !clients) {
  console.error("usage: node check-html.mjs PAGE.html --clients=DIR [--screenshot=PNG]");
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(clients), "package.json"));
const { chromium } = require("playwright-core");

const browser = await chromium.launch({
  executablePath: opt("chromium", "/usr/bin/chromium"),
  args: ["--no-sandbox", "--disable-gpu"],
});
let failed = false;
try {
  const context = await browser.newContext({
    viewport: { width: 1300, height: 900 }, offline: true });
  // Nothing may be fetched: the page is one self-contained file.
  await context.route(url => !url.toString().startsWith("file:"), route => {
    console.log(`REQUEST ${route.request().url()}`);
    failed = true;
    return route.abort();
  });
  const tab = await context.newPage();
  tab.on("console", m => { console.log(`CONSOLE ${m.type()}: ${m.text()}`); failed = true; });
  tab.on("pageerror", e => { console.log(`PAGEERROR ${e.message}`); failed = true; });
  await tab.goto(pathToFileURL(path.resolve(page)).href);
  await tab.waitForSelector("body[data-rendered=true]", { timeout: 20000 });

  const facts = await tab.evaluate(() => {
    const n = sel => document.querySelectorAll(sel).length;
    const text = sel => { const e = document.querySelector(sel); return e ? e.textContent : null; };
    return {
      title: document.title,
      cards: [...document.querySelectorAll("#overview-cards .card")].map(c =>
        c.querySelector(".label").textContent + "=" + c.querySelector(".value").textContent),
      advice: n("#advice li"),
      heap: n("#liveness svg path.heap"),
      alwaysLive: n("#liveness svg rect.always-live"),
      peak: text("#liveness svg text[style]"),
      peakBuffers: n("#peak-buffers tbody tr"),
      tiles: n("#heatmap rect.tile"),
      buckets: n("#histogram rect.bucket"),
      categories: n("#categories tr.category"),
      ops: n("#op-table tr.op"),
      firstOp: text("#op-table tr.op td"),
      steps: n("#run-timeline rect.step"),
      compatCards: [...document.querySelectorAll("#compat-cards .card")].map(c =>
        c.querySelector(".label").textContent + "=" + c.querySelector(".value").textContent),
      scopes: n("#compat-table tr.scope"),
      compatNotes: [...document.querySelectorAll("#compat-reasons li")].map(e => e.textContent),
      passes: n("#pass-timeline g.pass"),
      alongside: n("#pass-timeline g.pass.alongside"),
      // Whether every step of a second thread is drawn below every step of
      // the compile's own (rows never shared).
      lanesApart: (() => {
        const top = g => Number(g.querySelector("rect").getAttribute("y"));
        const own = [...document.querySelectorAll("#pass-timeline g.pass:not(.alongside)")].map(top);
        const other = [...document.querySelectorAll("#pass-timeline g.pass.alongside")].map(top);
        return other.every(y => own.every(o => y > o));
      })(),
      missing: [...document.querySelectorAll(".missing")].map(e => e.textContent),
    };
  });
  console.log(`TITLE ${facts.title}`);
  console.log(`OVERVIEW ${facts.cards.join(" | ")}`);
  console.log(`ADVICE ${facts.advice}`);
  console.log(`LIVENESS heap=${facts.heap} always-live=${facts.alwaysLive} ${facts.peak}`);
  console.log(`PEAK-BUFFERS ${facts.peakBuffers}`);
  console.log(`HEATMAP tiles=${facts.tiles} histogram-bars=${facts.buckets}`);
  console.log(`OPS categories=${facts.categories} rows=${facts.ops} first=${facts.firstOp}`);
  console.log(`TIMELINE steps=${facts.steps}`);
  console.log(`COMPAT ${facts.compatCards.join(" | ")} scopes=${facts.scopes}`);
  for (const note of facts.compatNotes) console.log(`COMPAT-NOTE ${note}`);
  console.log(`PASSES ${facts.passes} alongside=${facts.alongside}` +
              (facts.alongside ? ` below=${facts.lanesApart}` : ""));
  for (const m of facts.missing) console.log(`MISSING ${m}`);

  if (facts.ops > 1) {
    // Sorting: the cycles column toggles to ascending on a second click.
    const cycles = tab.locator('#op-table th[data-key="cycles"]');
    await cycles.click();
    const order = await tab.evaluate(() =>
      [...document.querySelectorAll("#op-table tr.op td:nth-child(4)")]
        .map(td => Number(td.textContent.replace(/,/g, ""))));
    const ascending = order.every((v, i) => i === 0 || order[i - 1] <= v);
    console.log(`SORT cycles ${await cycles.getAttribute("aria-sort")} ` +
                `${ascending ? "in order" : "OUT OF ORDER " + order.join(",")}`);
    // Filtering on the first op's name keeps it.
    const name = facts.firstOp;
    await tab.fill("#op-filter", name);
    const kept = await tab.evaluate(() =>
      [...document.querySelectorAll("#op-table tr.op td:first-child")].map(td => td.textContent));
    console.log(`FILTER ${name}: ${kept.length} rows${kept.includes(name) ? ", it among them" : ", IT IS GONE"}`);
    await tab.fill("#op-filter", "");
  }
  // A hover shows the tooltip of the liveness chart.
  const chart = tab.locator("#liveness svg rect[fill=transparent]");
  if (await chart.count()) {
    await chart.hover();
    console.log(`TOOLTIP ${(await tab.textContent("#tip")).split("\n")[0].replace(/\d+/, "N")}`);
    await tab.mouse.move(0, 0);
  }
  const shot = opt("screenshot");
  if (shot) {
    await tab.evaluate(() => window.scrollTo(0, 0));
    await tab.screenshot({ path: shot, fullPage: true });
    console.log("SCREENSHOT saved");
  }
} finally {
  await browser.close();
}
if (failed) {
  console.log("FAILED: the page logged to the console, threw, or fetched");
  process.exit(1);
}
console.log("OK");
