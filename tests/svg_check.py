#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""svg_check.py - check a picture of rtla sched-latency (--svg).

    svg_check.py bounds FILE.svg FILE.json [CPUS]
    svg_check.py hist FILE.svg [CPUS]

Both: the file is XML, every text is inside the canvas (a character is
0.6 em wide, rotated labels included), legend items do not overlap, and
there is one CPU label per CPU (CPUS, when given).
bounds: each bar is a stack whose segments touch, from the axis up; each
segment is as high as its value (data-ns) at the CPU's scale, and that
value is the JSON's for its term (terms_ns); a bounded bar is as high as
the JSON's bound; an unbounded one reaches the top of the axis, hatched.
hist: a panel per variable, each with a strip per CPU, and a maximum
marked in every strip with events.
Prints what is wrong, one line each; exits 1 if anything is.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
MODELS = ["no_interrupts", "worst_single", "worst_each", "sporadic",
          "sliding_window", "sliding_window_owcet"]
VARS = ["poid", "psd", "dst", "paie", "irq", "nmi"]
errors = []


def err(msg):
    errors.append(msg)


def walk(el, size=12.0):
    """every element with its inherited font size"""
    size = float(el.get("font-size", size))
    yield el, size
    for child in el:
        yield from walk(child, size)


def text_box(el, size):
    """(left, top, right, bottom) of a text, estimated high"""
    s = "".join(el.itertext())
    w = 0.6 * size * len(s)
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    anchor = el.get("text-anchor", "start")
    lo = {"start": 0, "middle": -w / 2, "end": -w}[anchor]
    rot = re.match(r"rotate\((-?[\d.]+) ([\d.]+) ([\d.]+)\)", el.get("transform", ""))
    if rot:
        if rot.group(1) != "-90" or float(rot.group(2)) != x or float(rot.group(3)) != y:
            err("unexpected transform %s" % el.get("transform"))
        # rotated -90 about (x, y): the text runs up from y - lo
        return (x - size, y - lo - w, x + 0.3 * size, y - lo)
    return (x + lo, y - size, x + lo + w, y + 0.3 * size)


def check_common(root, ncpus):
    width, height = float(root.get("width")), float(root.get("height"))
    legend = []
    for el, size in walk(root):
        if el.tag != NS + "text":
            continue
        l, t, r, b = text_box(el, size)
        if l < 0 or t < 0 or r > width or b > height:
            err("text %r (%.0f,%.0f)-(%.0f,%.0f) is out of the %gx%g canvas"
                % ("".join(el.itertext()), l, t, r, b, width, height))
        if el.get("data-role") == "legend":
            legend.append((l, t, r, b, "".join(el.itertext())))
    legend.sort()
    for a, b in zip(legend, legend[1:]):
        # a swatch (18 px) comes before each item's text
        if abs(a[1] - b[1]) < 1 and a[2] > b[0] - 18:
            err("legend items %r and %r overlap" % (a[4], b[4]))
    titles = [el for el in root.iter(NS + "text") if el.get("data-role") == "title"]
    if len(titles) != 1:
        err("%d titles" % len(titles))
    cpus = [el for el in root.iter(NS + "text") if el.get("data-role") == "cpu"]
    if ncpus is not None and len(cpus) != ncpus:
        err("%d CPU labels, not %d" % (len(cpus), ncpus))


def close(a, b, tol=0.02):
    return abs(a - b) <= tol + 1e-6 * abs(b)


def check_bounds(root, j):
    plots = [g for g in root.iter(NS + "g") if g.get("data-role") == "plot"]
    if sorted(g.get("data-cpu") for g in plots) != sorted(j["cpus"]):
        err("plots of CPUs %s, the JSON has %s"
            % (sorted(g.get("data-cpu") for g in plots), sorted(j["cpus"])))
    nbars = 0
    for g in plots:
        cpu = g.get("data-cpu")
        c = j["cpus"].get(cpu)
        if c is None:
            continue
        base, top = float(g.get("data-base")), float(g.get("data-top"))
        px_ns = float(g.get("data-px-per-us")) / 1000.0
        for m in MODELS:
            segs = [r for r in g.iter(NS + "rect") if r.get("data-model") == m]
            terms = c["terms_ns"][m]
            bound = c["bound_ns"][m]
            where = "CPU %s %s" % (cpu, m)
            nbars += 1
            y = base
            named = 0
            total = 0
            for r in segs:
                ry, rh = float(r.get("y")), float(r.get("height"))
                term = r.get("data-term")
                if not close(ry + rh, y):
                    err("%s: %s starts at %.2f, not on what is below it (%.2f)"
                        % (where, term, ry + rh, y))
                y = ry
                if term == "unbounded":
                    if bound is not None:
                        err("%s: hatched, but the JSON bounds it" % where)
                    if not close(ry, top):
                        err("%s: the unbounded bar ends at %.2f, not the top %.2f"
                            % (where, ry, top))
                    if r.get("fill") != "url(#hatch)":
                        err("%s: the unbounded part is not hatched" % where)
                    continue
                ns = int(r.get("data-ns"))
                if not close(rh, ns * px_ns):
                    err("%s: %s is %.2f px high, %d ns is %.2f px"
                        % (where, term, rh, ns, ns * px_ns))
                total += ns
                if term == terms["blocking_by"]:
                    want = terms["blocking"]
                elif term in ("D_PAIE", "D_PSD", "I_NMI"):
                    want = terms[{"D_PAIE": "paie", "D_PSD": "psd", "I_NMI": "nmi"}[term]]
                elif term == "I_IRQ other":
                    want = None
                elif terms["irq_sources"] and term in terms["irq_sources"]:
                    want = terms["irq_sources"][term]
                    named += ns
                else:
                    err("%s: a segment of unknown term %r" % (where, term))
                    continue
                if want is not None and ns != want:
                    err("%s: %s is %d ns, the JSON says %d" % (where, term, ns, want))
            other = [int(r.get("data-ns")) for r in segs if r.get("data-term") == "I_IRQ other"]
            if bound is not None:
                if sum(other) != terms["irq"] - named:
                    err("%s: I_IRQ other is %s ns, the JSON's I_IRQ less the sources drawn is %d"
                        % (where, other, terms["irq"] - named))
                if total != bound:
                    err("%s: the terms add to %d ns, the bound is %d" % (where, total, bound))
                if not close(base - y, bound * px_ns, 0.05):
                    err("%s: the bar is %.2f px high, the bound %.2f px"
                        % (where, base - y, bound * px_ns))
            elif not segs or segs[-1].get("data-term") != "unbounded":
                err("%s: unbounded in the JSON, not hatched to the top" % where)
    if not nbars:
        err("no bar")
    return nbars


def check_hist(root, ncpus):
    panels = [g for g in root.iter(NS + "g") if g.get("data-role") == "panel"]
    if [p.get("data-var") for p in panels] != [v for v in VARS if v in
                                             [p.get("data-var") for p in panels]]:
        err("panels out of order: %s" % [p.get("data-var") for p in panels])
    if not panels:
        err("no panel")
    for p in panels:
        strips = [g for g in p.iter(NS + "g") if g.get("data-role") == "strip"]
        if ncpus is not None and len(strips) != ncpus:
            err("panel %s: %d strips, not %d" % (p.get("data-var"), len(strips), ncpus))
        for s in strips:
            # the bins (one path) and the count over the range (a rect)
            bars = [e for e in s.iter() if e.get("data-count")]
            maxl = [ln for ln in s.iter(NS + "line") if ln.get("data-max-ns")]
            if bars and len(maxl) != 1:
                err("%s CPU %s: %d maximum lines" % (p.get("data-var"), s.get("data-cpu"),
                                                     len(maxl)))
    return len(panels)


def main():
    kind, svg = sys.argv[1], sys.argv[2]
    try:
        root = ET.parse(svg).getroot()
    except ET.ParseError as e:
        print("%s: not XML: %s" % (svg, e))
        return 1
    if root.tag != NS + "svg":
        err("the root is %s" % root.tag)
    if kind == "bounds":
        j = json.load(open(sys.argv[3]))
        ncpus = int(sys.argv[4]) if len(sys.argv) > 4 else len(j["cpus"])
        check_common(root, ncpus)
        what = "%d bars" % check_bounds(root, j)
    else:
        ncpus = int(sys.argv[3]) if len(sys.argv) > 3 else None
        check_common(root, ncpus)
        what = "%d panels" % check_hist(root, ncpus)
    for e in errors[:20]:
        print("%s: %s" % (svg, e))
    if len(errors) > 20:
        print("%s: and %d more" % (svg, len(errors) - 20))
    if not errors:
        print("%s: %s, all checks passed" % (svg, what))
    return 1 if errors else 0


sys.exit(main())
