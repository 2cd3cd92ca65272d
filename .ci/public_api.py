#!/usr/bin/env python3
"""The library's public API as sorted lines, read from rustdoc's JSON output.

Usage: public_api.py TARGET/doc/modsolve.json (called by .ci/public-api)

Every item a user can name (through a public module path or a re-export) is one line: its
kind, its path, and the types of a function's parameters and result or of a field (each type
by its own name, not its module path, so that moving a type behind a re-export is not a
change). Fields, variants, inherent methods and associated constants are listed under their
type; trait impls by the trait's name. `#[non_exhaustive]` is shown: adding it is a breaking
change.
"""
import json
import sys

doc = json.load(open(sys.argv[1]))
index = doc["index"]
out = set()
referenced = set()  # (id, path as written) of every type named in the listed signatures
reached = set()  # ids of the items listed


def item(i):
    return index.get(str(i))


def args(a):
    if not a:
        return ""
    if "angle_bracketed" in a:
        parts = []
        for x in a["angle_bracketed"]["args"]:
            if "type" in x:
                parts.append(ty(x["type"]))
            elif "lifetime" in x:
                parts.append(x["lifetime"])
            elif "const" in x:
                parts.append(str(x["const"].get("expr", "_")))
        for c in a["angle_bracketed"].get("constraints", []):
            binding = c.get("binding", {})
            if "equality" in binding and "type" in binding["equality"]:
                parts.append(f"{c['name']} = {ty(binding['equality']['type'])}")
        return f"<{', '.join(parts)}>" if parts else ""
    if "parenthesized" in a:
        p = a["parenthesized"]
        out = f"({', '.join(ty(t) for t in p['inputs'])})"
        return out + (f" -> {ty(p['output'])}" if p.get("output") else "")
    return ""


def bound(b):
    if "trait_bound" in b:
        t = b["trait_bound"]["trait"]
        return t["path"].split("::")[-1] + args(t.get("args"))
    return b.get("outlives", "?")


def ty(t):
    """A type as Rust writes it, each path by its last name."""
    if t is None:
        return "()"
    k = next(iter(t))
    v = t[k]
    if k == "resolved_path":
        if v.get("id") is not None:
            referenced.add((v["id"], v["path"]))
        return v["path"].split("::")[-1] + args(v.get("args"))
    if k == "primitive" or k == "generic":
        return v
    if k == "borrowed_ref":
        life = f"{v['lifetime']} " if v.get("lifetime") else ""
        return f"&{life}{'mut ' if v['is_mutable'] else ''}{ty(v['type'])}"
    if k == "raw_pointer":
        return f"*{'mut' if v['is_mutable'] else 'const'} {ty(v['type'])}"
    if k == "tuple":
        return f"({', '.join(ty(x) for x in v)})"
    if k == "slice":
        return f"[{ty(v)}]"
    if k == "array":
        return f"[{ty(v['type'])}; {v['len']}]"
    if k == "impl_trait":
        return "impl " + " + ".join(bound(b) for b in v)
    if k == "dyn_trait":
        return "dyn " + " + ".join(bound({"trait_bound": b}) for b in v["traits"])
    if k == "qualified_path":
        return f"<{ty(v['self_type'])}>::{v['name']}"
    if k == "function_pointer":
        return "fn" + sig(v["sig"])
    return k


def sig(s):
    params = ", ".join(f"{name}: {ty(t)}" for name, t in s["inputs"])
    out = f" -> {ty(s['output'])}" if s.get("output") else ""
    return f"({params}){out}"


def generics(g):
    names = []
    for p in (g or {}).get("params", []):
        kind = p["kind"]
        if "type" in kind and not kind["type"].get("is_synthetic"):
            bounds = " + ".join(bound(b) for b in kind["type"].get("bounds", []))
            names.append(p["name"] + (f": {bounds}" if bounds else ""))
        elif "const" in kind:
            names.append(f"const {p['name']}: {ty(kind['const']['type'])}")
    return f"<{', '.join(names)}>" if names else ""


def function(v):
    f = v["inner"]["function"]
    return generics(f.get("generics")) + sig(f["sig"])


def hidden(v):
    """`#[doc(hidden)]` on the item itself: the front-ends' plumbing, not the API. (The JSON is
    written with hidden items, so that an item re-exported from a hidden module is listed
    under its public path; a hidden module's items are reached only through such re-exports.)"""
    return "doc(hidden)" in json.dumps(v.get("attrs", []))


def attrs(v):
    text = json.dumps(v.get("attrs", []))
    return " #[non_exhaustive]" if "non_exhaustive" in text else ""


def walk(i, parent, seen, rename=None):
    v = item(i)
    if v is None or v["crate_id"] != 0 or hidden(v):
        return
    inner = v["inner"]
    kind = next(iter(inner))
    if kind == "use":
        use = inner["use"]
        target = use.get("id")
        if target is None or item(target) is None:
            out.add(f"use {parent}::{use['name']} = {use['source']}")
            return
        if use["is_glob"]:
            t = item(target)
            if "module" in t["inner"]:
                for c in t["inner"]["module"]["items"]:
                    walk(c, parent, seen)
            return
        walk(target, parent, seen, use["name"])
        return
    reached.add(v["id"])
    own = rename or v["name"]
    name = f"{parent}::{own}" if parent else own
    if kind == "module":
        if name in seen:
            return
        seen = seen | {name}
        out.add(f"mod {name}")
        for c in inner["module"]["items"]:
            walk(c, name, seen)
    elif kind in ("struct", "enum", "union", "trait"):
        body = inner[kind]
        out.add(f"{kind} {name}{generics(body.get('generics'))}{attrs(v)}")
        if kind == "struct":
            fields = body.get("kind", {})
            plain = fields.get("plain", {}) if isinstance(fields, dict) else {}
            for f in plain.get("fields", []):
                fv = item(f)
                if fv and fv["visibility"] == "public":
                    out.add(f"field {name}::{fv['name']}: {ty(fv['inner']['struct_field'])}")
            tup = fields.get("tuple") if isinstance(fields, dict) else None
            for k, f in enumerate(tup or []):
                if f is not None and item(f) and item(f)["visibility"] == "public":
                    out.add(f"field {name}::{k}: {ty(item(f)['inner']['struct_field'])}")
        if kind == "enum":
            for var in body.get("variants", []):
                vv = item(var)
                out.add(f"variant {name}::{vv['name']}{attrs(vv)}")
                vk = vv["inner"]["variant"]["kind"]
                if isinstance(vk, dict) and "struct" in vk:
                    for f in vk["struct"]["fields"]:
                        fv = item(f)
                        out.add(f"field {name}::{vv['name']}::{fv['name']}: {ty(fv['inner']['struct_field'])}")
                if isinstance(vk, dict) and "tuple" in vk:
                    types = [ty(item(f)["inner"]["struct_field"]) for f in vk["tuple"] if f is not None]
                    out.add(f"field {name}::{vv['name']}({', '.join(types)})")
        if kind == "trait":
            for m in body.get("items", []):
                mv = item(m)
                out.add(f"trait-item {name}::{mv['name']}")
        for imp in body.get("impls", []):
            iv = item(imp)
            if iv is None:
                continue
            im = iv["inner"]["impl"]
            if im.get("is_synthetic") or im.get("blanket_impl"):
                continue
            if im.get("trait"):
                out.add(f"impl {im['trait']['path']} for {name}")
                continue
            for m in im["items"]:
                mv = item(m)
                if mv and mv["visibility"] == "public" and not hidden(mv):
                    mk = next(iter(mv["inner"]))
                    label = {"function": "method", "assoc_const": "const", "assoc_type": "type"}.get(mk, mk)
                    shape = function(mv) if mk == "function" else ""
                    if mk == "assoc_const":
                        shape = f": {ty(mv['inner']['assoc_const']['type'])}"
                    out.add(f"{label} {name}::{mv['name']}{shape}")
    elif kind == "function":
        out.add(f"fn {name}{function(v)}")
    elif kind == "constant":
        out.add(f"const {name}: {ty(inner['constant']['type'])}")
    elif kind == "static":
        out.add(f"static {name}")
    elif kind == "type_alias":
        out.add(f"type {name}")
    elif kind == "macro":
        out.add(f"macro {name}")
    else:
        out.add(f"{kind} {name}")


walk(doc["root"], "", frozenset())
for line in sorted(out):
    print(line)
# A type of this crate named in the API but reachable by no public path (hidden or private):
# users could hold it but not name it. Listed on standard error; CI fails on any.
def ours(i):
    """Whether an item is this crate's: its own, or hidden (rustdoc then strips it entirely)."""
    known = index.get(str(i)) or doc["paths"].get(str(i))
    return known is None or known.get("crate_id") == 0


leaks = sorted({p for i, p in referenced if ours(i) and i not in reached})
for path in leaks:
    print(f"not reachable by a public path, but named in the API: {path}", file=sys.stderr)

# Options that users build from `Default` (they are #[non_exhaustive], so a struct literal is
# refused outside the crate) need a setter for every public field: a field added without one
# could not be set.
BUILT = ["Options", "check::CheckOptions", "hint::HintOptions", "export::ExportOptions",
         "difficulty::DistributionOptions", "generate::Spec", "solve::Budget"]
unset = []
for t in BUILT:
    name = f"modsolve::{t}"
    fields = {l.split()[1].rsplit("::", 1)[1].split(":")[0] for l in out if l.startswith(f"field {name}::")}
    methods = {l.split()[1][len(name) + 2:].split("(")[0] for l in out if l.startswith(f"method {name}::")}
    if not fields:
        unset.append(f"{name}: no public field listed (renamed or moved? update BUILT)")
    unset += [f"{name}::{f} has no setter" for f in sorted(fields - methods)]
for line in unset:
    print(f"an option without its setter: {line}", file=sys.stderr)
sys.exit(1 if leaks or unset else 0)
