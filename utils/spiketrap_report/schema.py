"""docs/report-schema.json compiled into a Python function that checks a
report against it.

The schema is the one description of the report's shape; this module knows
JSON Schema (the keywords the schema uses), not the report. It compiles the
schema once per process into plain Python source, as fastjsonschema does,
because a general validator is too slow for the check every subcommand
makes: jsonschema takes about 40 times as long as parsing the report (a
100,000-spike report: minutes), the compiled check less than parsing it.
test/unit/report/test_schema.py holds it to jsonschema's verdict.

Stricter than JSON Schema where the tool needs it: an integer is written
without a fraction (1.0 is not one), every integer is at most 2^64 - 1
(the runtime writes unsigned 64-bit values), and every string, and every
key, is at most MAX_TEXT characters and valid Unicode. Data the schema does
not describe (members it does not name, free-form objects) may nest at
most MAX_DEPTH levels.
"""
import json
import math
import re

# Linux's longest argument or environment string (MAX_ARG_STRLEN): the
# longest text a runtime copies from outside; no name comes near it.
MAX_TEXT = 128 * 1024
MAX_DEPTH = 32
MAX_INT = 2**64 - 1

# The keywords the compiler knows; a schema with any other is refused, so
# the schema cannot say more than the check checks.
KEYWORDS = {"$schema", "$id", "title", "description", "$defs", "$ref",
            "type", "const", "enum", "minimum", "maximum", "pattern",
            "required", "properties", "items", "minItems", "if", "then",
            "dependentRequired"}
PYTHON_TYPES = {"object": "dict", "array": "list", "string": "str",
                "boolean": "bool", "null": "NoneType", "integer": "int"}


class SchemaError(Exception):
    """A schema the compiler cannot compile."""


def shown(value):
    """A value as a message shows it: short."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str) and len(value) > 40:
        return "%s... (%d characters)" % (json.dumps(value[:30]), len(value))
    return json.dumps(value)


def text_problem(s):
    """What is wrong with a string (key or value), or None."""
    if len(s) > MAX_TEXT:
        return "a string of %d characters, longer than %d" % (len(s), MAX_TEXT)
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            return "%s is not valid Unicode (a lone surrogate)" % shown(s)
    return None


def free(value, parent, key, error, depth):
    """Checks data the schema does not describe: its depth, its strings."""
    todo = [(value, parent, key, depth)]
    while todo:
        value, parent, key, depth = todo.pop()
        t = type(value)
        if t is str:
            problem = text_problem(value)
            if problem:
                error((parent, key, problem))
        elif t is int:
            if not -MAX_INT <= value <= MAX_INT:
                error((parent, key, "%d does not fit in 64 bits" % value))
        elif t is float:
            if not math.isfinite(value):
                error((parent, key, "%r is not a finite number" % value))
        elif t is dict or t is list:
            if depth >= MAX_DEPTH:
                error((parent, key, "nested deeper than %d levels" % MAX_DEPTH))
                continue
            here = (parent, key)
            if t is dict:
                for k, v in value.items():
                    problem = text_problem(k)
                    if problem:
                        error((parent, key, "a key: " + problem))
                    else:
                        todo.append((v, here, k, depth + 1))
            else:
                for i, v in enumerate(value):
                    todo.append((v, here, i, depth + 1))


def where(parent, key):
    """The JSONPath of a value from the (parent, key) chain the check
    keeps: $.spikes[3].stack[0].function."""
    parts = [key]
    while parent is not None:
        parent, key = parent
        parts.append(key)
    out = ""
    for part in reversed(parts):
        out += "[%d]" % part if isinstance(part, int) else \
            part if not out else "." + part
    return out


class Compiler:
    """Writes one Python function per object or array node of the schema
    (each $defs entry once); scalar members are checked inline."""

    def __init__(self, root):
        self.root = root
        self.functions = []
        self.names = {}
        self.env = {"NoneType": type(None), "shown": shown, "free": free,
                    "text_problem": text_problem, "json": json,
                    "MAX_INT": MAX_INT}

    def constant(self, value):
        name = "K%d" % len(self.env)
        self.env[name] = value
        return name

    def resolve(self, s):
        for _ in range(64):
            unknown = set(s) - KEYWORDS
            if unknown:
                raise SchemaError("keywords the check does not know: "
                                  + ", ".join(sorted(unknown)))
            if "$ref" not in s:
                return s
            ref = s["$ref"]
            if not ref.startswith("#/$defs/"):
                raise SchemaError("a $ref outside #/$defs: " + ref)
            # JSON Schema 2020-12 applies a $ref's siblings too; the ones
            # beside a $ref here may only be annotations.
            if set(s) - {"$ref", "description", "title"}:
                raise SchemaError("keywords beside $ref %s" % ref)
            s = self.root["$defs"][ref[len("#/$defs/"):]]
        raise SchemaError("a loop of $refs")

    @staticmethod
    def types(s):
        t = s.get("type")
        return [t] if isinstance(t, str) else t

    def compound(self, s):
        return bool({"object", "array"} & set(self.types(s) or ())) or any(
            k in s for k in ("properties", "required", "items", "minItems",
                             "if", "dependentRequired"))

    def function(self, s):
        """The name of the function that checks node s."""
        if id(s) not in self.names:
            name = "check_%d" % len(self.names)
            self.names[id(s)] = name
            body = []
            self.node(s, "v", "parent", "key", body, "    ", top=True)
            self.functions.append("def %s(v, parent, key, error):\n%s\n" % (
                name, "\n".join(body)))
        return self.names[id(s)]

    def node(self, s, v, parent, key, out, ind, top=False):
        """Lines that check value v (at parent, key) against s."""
        s = self.resolve(s)
        if not top and self.compound(s):
            out.append("%s%s(%s, %s, %s, error)" % (ind, self.function(s), v, parent, key))
            return
        err = "%serror((%s, %s, %%s))" % (ind + "    ", parent, key)
        types = self.types(s)
        if types:
            pt = [PYTHON_TYPES[t] for t in types]
            out.append("%sif %s:" % (ind, "type(%s) is not %s" % (v, pt[0]) if len(pt) == 1
                                      else "type(%s) not in (%s)" % (v, ", ".join(pt))))
            out.append(err % ("%r + shown(%s)" % ("expected %s, got " % " or ".join(types), v)))
            out.append("%s    return" % ind if top else "%selse:" % ind)
            if not top:
                ind += "    "
        allowed = set(types or PYTHON_TYPES)
        start = len(out)
        err = "%serror((%s, %s, %%s))" % (ind + "    ", parent, key)
        if "const" in s:
            c = self.constant(s["const"])
            out.append("%sif %s != %s or type(%s) is not type(%s):" % (ind, v, c, v, c))
            out.append(err % ("'expected ' + json.dumps(%s)" % c))
        if "enum" in s:
            c = self.constant(tuple(s["enum"]))
            out.append("%sif %s not in %s:" % (ind, v, c))
            out.append(err % ("shown(%s) + ' is not one of ' + ', '.join(map(json.dumps, %s))"
                              % (v, c)))
        if "integer" in allowed:
            guard = "" if allowed == {"integer"} else "type(%s) is int and " % v
            low, high = s.get("minimum", -MAX_INT), min(s.get("maximum", MAX_INT), MAX_INT)
            out.append("%sif %snot %d <= %s <= %d:" % (ind, guard, low, v, high))
            out.append(err % ("'%%d is not between %d and %d' %% %s" % (low, high, v)))
        if "string" in allowed:
            guard = "" if allowed == {"string"} else "type(%s) is str and " % v
            out.append("%sif %s(len(%s) > %d or not %s.isascii()) and text_problem(%s):"
                       % (ind, guard, v, MAX_TEXT, v, v))
            out.append(err % ("text_problem(%s)" % v))
            if "pattern" in s:
                c = self.constant(re.compile(s["pattern"]))
                out.append("%sif %snot %s.search(%s):" % (ind, guard, c, v))
                out.append(err % ("shown(%s) + ' does not match ' + %s.pattern" % (v, c)))
        if "object" in allowed and self.compound(s):
            self.members(s, v, parent, key, out, ind, allowed != {"object"})
        if "array" in allowed and self.compound(s):
            self.items(s, v, parent, key, out, ind, allowed != {"array"})
        if len(out) == start:
            out.append("%spass" % ind)

    def members(self, s, v, parent, key, out, ind, guard):
        if guard:
            out.append("%sif type(%s) is dict:" % (ind, v))
            ind += "    "
        err = "%serror((%s, %s, %%r))" % (ind + "    ", parent, key)
        for name in s.get("required", ()):
            out.append("%sif %r not in %s:" % (ind, name, v))
            out.append(err % ("missing %r" % name))
        for name, needs in s.get("dependentRequired", {}).items():
            for need in needs:
                out.append("%sif %r in %s and %r not in %s:" % (ind, name, v, need, v))
                out.append(err % ("%r without %r" % (name, need)))
        props = s.get("properties", {})
        out.append("%shere = (%s, %s)" % (ind, parent, key))
        for name, sub in props.items():
            out.append("%sx = %s.get(%r, here)" % (ind, v, name))  # here: absent
            out.append("%sif x is not here:" % ind)
            self.node(sub, "x", "here", repr(name), out, ind + "    ")
        named = self.constant(frozenset(props))
        out.append("%sif not %s.keys() <= %s:" % (ind, v, named))
        out.append("%s    free({k: %s[k] for k in %s.keys() - %s}, %s, %s, error, 0)"
                   % (ind, v, v, named, parent, key))
        if "if" in s:
            out.append("%sfailed = []" % ind)
            out.append("%s%s(%s, %s, %s, failed.append)" % (
                ind, self.function(s["if"]), v, parent, key))
            out.append("%sif not failed:" % ind)
            out.append("%s    %s(%s, %s, %s, error)" % (
                ind, self.function(s.get("then", {})), v, parent, key))

    def items(self, s, v, parent, key, out, ind, guard):
        if guard:
            out.append("%sif type(%s) is list:" % (ind, v))
            ind += "    "
        if "minItems" in s:
            out.append("%sif len(%s) < %d:" % (ind, v, s["minItems"]))
            out.append("%s    error((%s, %s, %r))" % (
                ind, parent, key, "fewer than %d items" % s["minItems"]))
        out.append("%shere = (%s, %s)" % (ind, parent, key))
        out.append("%sfor i, x in enumerate(%s):" % (ind, v))
        if "items" in s:
            self.node(s["items"], "x", "here", "i", out, ind + "    ")
        else:
            out.append("%s    free(x, here, i, error, 1)" % ind)

    def compile(self):
        top = self.function(self.root)
        source = "\n".join(self.functions)
        exec(compile(source, "<report-schema.json>", "exec"), self.env)
        return self.env[top]


def compile_schema(schema):
    """A function check(value, error): error((parent, key, problem)) for
    each problem found (where(parent, key) says where)."""
    check = Compiler(schema).compile()
    return lambda value, error: check(value, None, "$", error)
