// The health report (quire/doctor) as the extension shows it: a status
// bar item that says whether the advisor is ready and, if not, why, and
// the report as a read-only Markdown document, problems first, with what
// to do in VS Code beside what quire says. Pure.
import { DoctorCheck } from "./protocol";

export interface AdvisorView {
  text: string;
  tooltip: string;
  /** ready: the provider, the model and the key are all fine. */
  ready: boolean;
}

const rank: Record<DoctorCheck["status"], number> = { problem: 0, warning: 1, ok: 2 };

/** worstFirst orders the checks problems first, then warnings, each group as the server sent it. */
export function worstFirst(checks: readonly DoctorCheck[]): DoctorCheck[] {
  return checks
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank[a.c.status] - rank[b.c.status] || a.i - b.i)
    .map((x) => x.c);
}

function line(c: DoctorCheck): string {
  return c.fix ? `${c.name}: ${c.detail} — ${c.fix}` : `${c.name}: ${c.detail}`;
}

// httpStatus is the HTTP status a model line names, e.g. "(HTTP 401)".
function httpStatus(detail: string): number | undefined {
  const m = /\(HTTP (\d{3})\)/.exec(detail);
  return m ? Number(m[1]) : undefined;
}

/**
 * advisorView is the advisor's status bar item for a report: ready, or
 * the first reason it is not, among the provider, model and key lines.
 * Clicking it shows the whole report.
 */
export function advisorView(checks: readonly DoctorCheck[]): AdvisorView {
  const get = (name: DoctorCheck["name"]) => checks.find((c) => c.name === name);
  const provider = get("provider");
  const model = get("model");
  const key = get("key");
  const advisor = [provider, model, key].filter((c): c is DoctorCheck => c !== undefined);
  const failing = worstFirst(advisor).filter((c) => c.status !== "ok");
  const tooltip = (failing.length > 0 ? failing : advisor).map(line).join("\n") + "\nClick for the health report.";
  const noKey = key !== undefined && /^none\b/.test(key.detail);
  let text: string | undefined;
  if (provider !== undefined && /none is configured/.test(provider.detail)) {
    // No model is a writer's choice (the server reports it as a
    // warning): the advisor is off, nothing has failed.
    text = provider.status === "problem" ? "$(error) quire: no provider" : "$(circle-slash) quire: no provider";
  } else if (provider?.status === "problem") {
    text = "$(error) quire: provider not set up";
  } else if (key?.status === "problem") {
    text = "$(key) quire: no key";
  } else if (model?.status === "problem") {
    const http = httpStatus(model.detail);
    if (http === 401 || http === 403) {
      text = noKey ? "$(key) quire: no key" : "$(key) quire: key refused";
    } else {
      text = "$(error) quire: model not reachable";
    }
  } else if (key?.status === "warning") {
    text = "$(warning) quire: key not sent";
  } else if (failing.length > 0) {
    text = "$(warning) quire: advisor needs a look";
  }
  if (advisor.length === 0) {
    return { text: "$(question) quire: advisor", tooltip: "The server sent no provider check. Click for the health report.", ready: false };
  }
  return text ? { text, tooltip, ready: false } : { text: "$(check) quire: advisor ready", tooltip, ready: true };
}

// vscodeHint is what to do in VS Code for a failing check, beside quire's
// own words (which name the command line).
function vscodeHint(c: DoctorCheck): string | undefined {
  switch (c.name) {
    case "key":
      return c.status !== "ok" && /^none\b/.test(c.detail) ? "In VS Code: run **quire: Set API Key**." : undefined;
    case "provider":
      return "In VS Code: run **quire: Choose Provider**, or **quire: Choose Local Model** for a model on this computer.";
    case "model": {
      const http = httpStatus(c.detail);
      if (http === 401 || http === 403) {
        return "In VS Code: run **quire: Set API Key** to store the right key.";
      }
      return undefined;
    }
  }
  return undefined;
}

// cell keeps a value on its line in a Markdown list.
function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, " ");
}

/**
 * healthMarkdown is the report as a Markdown document: a summary line,
 * the problems and warnings each with what to do, then what is fine.
 */
export function healthMarkdown(checks: readonly DoctorCheck[]): string {
  const sorted = worstFirst(checks);
  const problems = sorted.filter((c) => c.status === "problem");
  const warnings = sorted.filter((c) => c.status === "warning");
  const fine = sorted.filter((c) => c.status === "ok");
  const out: string[] = ["# quire health report", ""];
  if (problems.length > 0) {
    out.push(`${problems.length === 1 ? "One thing needs" : `${problems.length} things need`} your attention; each says what to do.`, "");
  } else if (warnings.length > 0) {
    out.push("Everything quire needs works; the warnings below may still matter to you.", "");
  } else {
    out.push("Everything quire needs works.", "");
  }
  const section = (title: string, list: DoctorCheck[]) => {
    if (list.length === 0) {
      return;
    }
    out.push(`## ${title}`, "");
    for (const c of list) {
      out.push(`- **${c.name}**: ${oneLine(c.detail)}`);
      if (c.fix) {
        out.push(`  - What to do: ${oneLine(c.fix)}`);
      }
      const hint = c.status === "ok" ? undefined : vscodeHint(c);
      if (hint) {
        out.push(`  - ${hint}`);
      }
    }
    out.push("");
  };
  section("Problems", problems);
  section("Warnings", warnings);
  section("Working", fine);
  return out.join("\n");
}
