package server

import (
	"crypto/sha256"
	"encoding/base64"
)

// earlySteps is an inline script in every page's head that makes the
// playground's Step work before the wasm has started (issue 13): the
// server renders the playground's changing parts at its first steps as
// templates (app/playground/early_steps.go), and this swaps them in when Step, Step
// back, Reset, the scrubber or their keys are used. Run to end is
// remembered. When the app starts it calls txnlabEarly.stop(), which
// ends this and says where the learner is, and the app draws that
// position; until then nothing else on the page moves.
//
// It stands aside, and the app restores what it kept as before, when the
// templates are not the script the app will show: a share link (#s=), a
// script the learner edited and the browser kept, a position kept from an
// earlier visit, or text typed into the editor.
//
// The Content-Security-Policy allows it by its hash (earlyStepsHash).
const earlySteps = `
(() => {
  let stopped = false, steps = null, pos = 0, want = 0, end = false;
  const editor = () => document.getElementById("script");
  const kept = () => {
    const same = (a) => { try { return new URL(a).href === new URL(location.href.replace(/^([^:]+:\/\/[^/]+)\/zh(?=[/?#]|$)/, "$1")).href; } catch { return false; } };
    try {
      const s = JSON.parse(localStorage.getItem("txnlab.playground.script") || "null");
      if (s && same(s.source) && s.script !== editor().defaultValue) return true;
      const p = (localStorage.getItem("txnlab.playground.pos") || "").split(" ");
      return +p[0] > 0 && same(p.slice(1).join(" "));
    } catch { return false; }
  };
  const ready = () => {
    if (steps) return steps.length > 1 && editor() && editor().value === editor().defaultValue;
    // A press while the page is still being parsed may come before the
    // steps are: they end with a mark.
    if (document.readyState === "loading" && !document.querySelector("[data-early-end]")) return false;
    steps = [];
    const ts = document.querySelectorAll("template[data-early-step]");
    if (!ts.length || !editor() || /(^#|&)s=/.test(location.hash) || kept()) return false;
    for (const t of ts) (steps[+t.dataset.earlyStep] ||= []).push({ at: t.dataset.earlyAt, node: () => t.content.cloneNode(true) });
    steps[0] = [];
    for (const part of steps[1] || []) {
      const el = document.querySelector(part.at);
      if (el) { const copy = el.cloneNode(true); steps[0].push({ at: part.at, node: () => copy.cloneNode(true) }); }
    }
    return ready();
  };
  const draw = (k) => {
    if (k === pos) return;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-action]");
    const action = focused && focused.dataset.action;
    for (const part of steps[k]) {
      const el = document.querySelector(part.at);
      if (el) el.replaceWith(part.node());
    }
    pos = k;
    if (action) { const again = document.querySelector('.playground [data-action="' + action + '"]'); if (again) again.focus(); }
  };
  const move = (to) => {
    if (stopped || !ready()) return false;
    end = false;
    want = Math.max(0, to);
    draw(Math.min(want, steps.length - 1));
    return true;
  };
  const onClick = (e) => {
    const b = e.target.closest && e.target.closest(".playground button[data-action]");
    if (!b || b.getAttribute("aria-disabled") === "true") return;
    switch (b.dataset.action) {
      case "step": move(want + 1); break;
      case "back": move(want - 1); break;
      case "reset": move(0); break;
      case "end": if (ready()) end = true; break;
    }
  };
  const onInput = (e) => {
    if (e.target.matches && e.target.matches(".playground input[data-action=seek]")) move(+e.target.value);
  };
  const onKey = (e) => {
    const t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || (t && (t.isContentEditable || /^(TEXTAREA|INPUT|SELECT)$/.test(t.tagName)))) return;
    const to = { ArrowRight: want + 1, ArrowLeft: want - 1, Home: 0 }[e.key];
    if (to !== undefined ? move(to) : e.key === "End" && ready() && (end = true)) e.preventDefault();
  };
  addEventListener("click", onClick, true);
  addEventListener("input", onInput, true);
  addEventListener("keydown", onKey, true);
  globalThis.txnlabEarly = {
    stop() {
      stopped = true;
      removeEventListener("click", onClick, true);
      removeEventListener("input", onInput, true);
      removeEventListener("keydown", onKey, true);
      return ready() ? { pos: want, end } : { pos: 0, end: false };
    },
  };
})();
`

// earlyStepsTag is earlySteps as the head's element.
const earlyStepsTag = "<script>" + earlySteps + "</script>"

// earlyStepsHash is the CSP source that allows earlySteps.
var earlyStepsHash = func() string {
	sum := sha256.Sum256([]byte(earlySteps))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()
