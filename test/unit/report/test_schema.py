"""spiketrap_report.schema: docs/report-schema.json compiled into the check
every subcommand makes, held to the verdict of jsonschema (Debian's
python3-jsonschema, installed by utils/setup.sh), the reference
implementation of JSON Schema, on the damaged reports of test_bad_input."""
import json
import unittest

import support
import test_bad_input
from spiketrap_report import errors, model, schema

try:
    import jsonschema
except ImportError:
    jsonschema = None


def schema_document():
    with open(model.SCHEMA, encoding="utf-8") as f:
        return json.load(f)


class Compiler(unittest.TestCase):
    def check(self, sch, value):
        found = []
        schema.compile_schema(sch)(value, found.append)
        return [(schema.where(p, k), m) for p, k, m in found]

    def test_keywords(self):
        sch = {"type": "object", "required": ["a"],
               "properties": {"a": {"type": ["integer", "null"], "minimum": 2},
                              "b": {"enum": ["x", "y"]},
                              "c": {"type": "array", "minItems": 1,
                                    "items": {"type": "string", "pattern": "^z"}}},
               "if": {"properties": {"a": {"minimum": 5}}},
               "then": {"required": ["b"]},
               "dependentRequired": {"c": ["b"]}}
        self.assertEqual(self.check(sch, {"a": 2}), [])
        self.assertEqual(self.check(sch, {"a": 1, "c": [], "d": "x" * 200000}), [
            ("$", "'c' without 'b'"),
            ("$.a", "1 is not between 2 and 18446744073709551615"),
            ("$.c", "fewer than 1 items"),
            ("$.d", "a string of 200000 characters, longer than 131072")])
        self.assertEqual(self.check(sch, {"a": 5, "c": ["y", 3]}), [
            ("$", "'c' without 'b'"),
            ("$.c[0]", '"y" does not match ^z'),
            ("$.c[1]", "expected string, got 3"),
            ("$", "missing 'b'")])
        self.assertEqual(self.check(sch, {"a": 5, "b": "z"}), [
            ("$.b", '"z" is not one of "x", "y"')])

    def test_integers_are_whole_and_64_bits(self):
        sch = {"type": "integer"}
        self.assertEqual(self.check(sch, 1.0), [("$", "expected integer, got 1.0")])
        self.assertEqual(self.check(sch, True), [("$", "expected integer, got true")])
        self.assertEqual(len(self.check(sch, 2**64)), 1)

    def test_a_keyword_it_does_not_know_is_refused(self):
        with self.assertRaises(schema.SchemaError):
            schema.compile_schema({"oneOf": []})
        with self.assertRaises(schema.SchemaError):
            schema.compile_schema({"$ref": "#/$defs/a", "type": "string",
                                   "$defs": {"a": {}}})

    def test_the_reports_schema_compiles(self):
        schema.compile_schema(schema_document())


@unittest.skipIf(jsonschema is None, "python3-jsonschema is not installed "
                 "(utils/setup.sh installs it)")
class AsJsonschemaSays(support.TempDir, unittest.TestCase):
    def test_the_schema_is_valid_json_schema(self):
        jsonschema.Draft202012Validator.check_schema(schema_document())

    def test_same_verdict_on_every_damaged_report(self):
        """Where jsonschema finds a problem, the check does; where it finds
        none, the check finds none but the ones it adds on purpose (the
        links, the bounds, integers written as 1.0)."""
        reference = jsonschema.Draft202012Validator(schema_document())
        path = self.path("damaged.json")
        disagree = []
        for name, data in test_bad_input.mutants():
            with open(path, "wb") as f:
                f.write(data)
            try:
                value = model.parse(path)
            except errors.BadInput:
                continue  # not JSON: no schema's business
            found = []
            model._schema_check()(value, found.append)
            theirs = reference.is_valid(value)
            ours = not found
            if theirs != ours and not (theirs and found and all(
                    "longer than" in m or "nested deeper" in m or "1.5" in name
                    or "not valid Unicode" in m or "finite" in m or "64 bits" in m
                    for _, _, m in found)):
                disagree.append("%s: jsonschema %s, the check %s" % (
                    name, "valid" if theirs else "invalid", found[:1]))
        self.maxDiff = None
        self.assertEqual(disagree, [])


if __name__ == "__main__":
    unittest.main()
