/**
 * The family display's style (docs/display.md, "Every wall"), inline in its page and allowed by
 * its hash. Written for the browsers old wall tablets run (Safari 12, Chrome 80): no flex `gap`,
 * no `inset`, no `clamp()` (a plain value comes first and `max()`/`min()` refine it), sticky
 * with its -webkit- twin.
 *
 * - Type scales with the smaller side of the screen (vmin), so a portrait tablet reads as large
 *   as a landscape one; the clock is three times the body text.
 * - Landscape (at least 900 px wide, wider than 4:3): the days side by side, today widest, and a
 *   column of chores, lists and polls; a day never narrower than its longest word (a German
 *   compound), so where three do not fit the last wraps below. Portrait: today across the screen, the next days two by
 *   two, then chores and lists side by side. Phone (under 600 px): one column, the clock above
 *   the title.
 * - Words never break inside (a box grows or wraps between words instead); where the browser
 *   knows the page's language (`lang`), a word longer than its column is hyphenated.
 * - Right to left: every side is a logical one (`margin-inline-end`, `text-align:start`, with
 *   the -webkit- twins Safari 12 knows), so an Arabic page mirrors: the clock on the left, the
 *   tick boxes on the right, Undo at the left end of its bar.
 * - Light and dark follow the device; night (the display's `nightFrom`–`nightTo`) dims to a
 *   black screen with grey text, still of WCAG AA contrast.
 * - Every control is a real button at least 48 px high and wide; nothing depends on hover.
 */
export const DISPLAY_CSS = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#111418;--muted:#3d4550;--card:#f1f3f5;--line:#b9c0c8;--accent:#1d5c3a;--warn:#8a1c1c;--ok:#1d5c3a;--press:#dcefe3;--bar:#e6ebf0}
@media (prefers-color-scheme:dark){:root{--bg:#0b0d10;--fg:#f4f6f8;--muted:#c3cad2;--card:#181c21;--line:#4a535e;--accent:#8fd6a8;--warn:#ffb4a8;--ok:#8fd6a8;--press:#1f3a2a;--bar:#20262d}}
html.night{--bg:#000000;--fg:#b4b4b4;--muted:#9a9a9a;--card:#0b0b0b;--line:#3a3a3a;--accent:#8fb79b;--warn:#d99a90;--ok:#8fb79b;--press:#17261c;--bar:#111111}
*{box-sizing:border-box}
html{font-size:18px;font-size:calc(10px + 2.3vmin);font-size:max(18px,min(3.5vmin,46px));-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:break-word;word-break:normal;-webkit-hyphens:auto;hyphens:auto}
header{display:grid;grid-template-columns:1fr auto;align-items:center;padding:.4rem .8rem .3rem}
h1{grid-column:1;grid-row:1;font-size:1.5rem;margin:0;-webkit-margin-end:1rem;margin-inline-end:1rem;min-width:0}
#clock{grid-column:2;grid-row:1/3;font-size:3rem;font-weight:700;font-variant-numeric:tabular-nums;letter-spacing:.02em;white-space:nowrap;line-height:1.1}
#status{grid-column:1;grid-row:2;justify-self:start;font-size:.8rem;font-weight:600;padding:.1rem .6rem;border-radius:1rem;border:2px solid currentColor;margin:.2rem 0 0;-webkit-margin-end:1rem;margin-inline-end:1rem}
#status[data-state=live]{color:var(--ok)}
#status[data-state=offline],#status[data-state=gone]{color:var(--warn)}
#next{position:-webkit-sticky;position:sticky;top:0;z-index:2;background:var(--bar);color:var(--fg);border-top:2px solid var(--line);border-bottom:2px solid var(--line);padding:.35rem .8rem;font-weight:600}
#next .t{display:inline;-webkit-margin-end:.5rem;margin-inline-end:.5rem}
#next .leave{-webkit-margin-start:.5rem;margin-inline-start:.5rem}
main{padding:.8rem .8rem 5rem}
.days{display:grid;grid-template-columns:1fr;grid-gap:.8rem}
.side{display:grid;grid-template-columns:1fr;grid-gap:.8rem;margin-top:.8rem}
section{background:var(--card);border:2px solid var(--line);border-radius:.7rem;padding:.55rem .7rem;min-width:0}
@media (min-width:600px){.days{grid-template-columns:1fr 1fr}.days .day:first-child{grid-column:1/-1}.side{grid-template-columns:repeat(auto-fit,minmax(15em,1fr))}.side .polls{grid-column:1/-1}}
@media (min-width:900px) and (min-aspect-ratio:4/3){main{display:grid;grid-template-columns:minmax(0,3fr) minmax(min-content,1.05fr);grid-gap:.8rem}.days{display:-webkit-flex;display:flex;-webkit-flex-wrap:wrap;flex-wrap:wrap;grid-gap:0;margin:0 -.4rem}.days .day{-webkit-flex:1 1 0;flex:1 1 0;min-width:auto;margin:0 .4rem .8rem}.days .day:first-child{grid-column:auto;-webkit-flex-grow:1.2;flex-grow:1.2}.side{grid-template-columns:minmax(min-content,1fr);margin-top:0;align-content:start}}
@media (max-width:599px){header{grid-template-columns:1fr}#clock{grid-column:1;grid-row:1}h1{grid-row:2;margin:0}#status{grid-row:3}main{padding:.8rem .8rem 5rem}#next{padding:.4rem .8rem}}
h2{font-size:1.2rem;margin:0}
h3{font-size:1rem;margin:.5rem 0 .2rem}
.date{font-size:.85rem;font-weight:600;color:var(--muted);margin:0 0 .4rem}
.wx{font-size:.85rem;color:var(--muted);margin:0 0 .5rem}
ul{list-style:none;margin:0;padding:0}
li{padding:.35rem 0;border-top:1px solid var(--line)}
li:first-child{border-top:0}
.t{display:inline-block;-webkit-margin-end:.45em;margin-inline-end:.45em;font-weight:700;font-variant-numeric:tabular-nums}
.title{font-weight:600}
.event .title{display:inline-block}
.meta{display:block;font-size:.85rem;color:var(--muted)}
.leave{font-size:.85rem;font-weight:700;color:var(--accent)}
.overdue{color:var(--warn);font-weight:700}
.done .title{text-decoration:line-through}
.empty{color:var(--muted)}
.option-ro{margin:.2rem 0 .5rem}
button{font:inherit;color:inherit;background:none;border:2px solid transparent;border-radius:.6rem;margin:0;min-height:48px;min-width:48px;cursor:pointer;-webkit-appearance:none;appearance:none;touch-action:manipulation}
button:focus{outline:3px solid var(--accent);outline-offset:2px}
.tick,.open{display:flex;align-items:flex-start;width:100%;text-align:start;padding:.2rem 0;border:0}
.tick>span:last-child,.open>span{flex:1 1 auto;min-width:0}
.box{flex:none;display:inline-block;width:1.25em;height:1.25em;margin:.05em 0 0;-webkit-margin-end:.55em;margin-inline-end:.55em;border:3px solid currentColor;border-radius:.3em;text-align:center;line-height:1;font-weight:700}
.tick[aria-pressed=true] .box{background:var(--press)}
.tick[aria-pressed=true] .box:after{content:"\\2713"}
.pending{font-size:.8rem;color:var(--muted);font-style:italic}
.who{display:flex;flex-wrap:wrap;margin:.3rem 0 0}
.chip{border-color:var(--line);background:var(--bg);padding:.1rem .5rem;margin:0 0 .4rem;-webkit-margin-end:.4rem;margin-inline-end:.4rem;font-size:.85rem;font-weight:600}
.chip[aria-pressed=true]{border-color:var(--accent);background:var(--press)}
.chip.out{text-decoration:line-through}
.option{display:block;width:100%;text-align:start;border-color:var(--line);background:var(--bg);padding:.3rem .6rem;margin:0 0 .5rem}
.option[aria-pressed=true]{border-color:var(--accent);background:var(--press)}
form.add{display:flex;flex-wrap:wrap;align-items:stretch;margin:.5rem 0 0}
form.add label{display:block;width:100%;font-size:.85rem;font-weight:600;color:var(--muted);margin:0 0 .2rem}
form.add input{flex:1 1 6em;width:4em;min-width:0;min-height:48px;font:inherit;color:var(--fg);background:var(--bg);border:2px solid var(--line);border-radius:.6rem;padding:.2rem .5rem;margin:0 0 .3rem;-webkit-margin-end:.5rem;margin-inline-end:.5rem}
.act{border-color:var(--accent);background:var(--press);font-weight:700;padding:.2rem .9rem}
#undo,#notice{position:fixed;left:0;right:0;z-index:3;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;padding:.4rem .8rem;background:var(--bar);border-top:2px solid var(--line);border-bottom:2px solid var(--line)}
#undo{bottom:0}
#notice{top:0;color:var(--fg)}
#undo[hidden],#notice[hidden]{display:none}
#undo span,#notice span{flex:1 1 12em;min-width:0;-webkit-margin-end:1rem;margin-inline-end:1rem;font-weight:600}
#notice span{color:var(--warn)}
body.gone main{opacity:.35}
`;
