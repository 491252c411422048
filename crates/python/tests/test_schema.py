"""The type stub (nimlab.pyi) and the answers checked against the answer documents'
JSON Schema (docs/schema.json, generated from nimlab-json's types)."""

import ast
import json
import pathlib

import nimlab

ROOT = pathlib.Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "docs" / "schema.json").read_text())
STUB = ast.parse((ROOT / "crates" / "python" / "nimlab.pyi").read_text())

# Each TypedDict of the stub and the document it describes.
STUB_DOCS = {
    "OptionInfo": "OptionDoc",
    "Report": "PositionDoc",
    "Mismatch": "MismatchDoc",
    "CheckReport": "CheckDoc",
    "PeriodicityReport": "PeriodicityDoc",
    "SearchShard": "SearchShardDoc",
    "ShardHit": "ShardHitDoc",
}


def resolve(schema):
    while "$ref" in schema:
        schema = SCHEMA["$defs"][schema["$ref"].split("/")[-1]]
    return schema


def properties(schema):
    """Every key an object of this schema may have (through $ref, allOf, anyOf, oneOf)."""
    schema = resolve(schema)
    keys = set(schema.get("properties", {}))
    for combinator in ("allOf", "anyOf", "oneOf"):
        for part in schema.get(combinator, []):
            keys |= properties(part)
    return keys


def stub_keys(name):
    """The keys of a TypedDict of the stub, written as a class or as a call
    (``Name = TypedDict("Name", {...})``, for keys such as ``class``)."""
    for node in STUB.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", None) == "TypedDict"
        ):
            fields = node.value.args[1]
            assert isinstance(fields, ast.Dict)
            return {k.value for k in fields.keys}
    raise AssertionError(f"nimlab.pyi has no TypedDict {name}")


def doc_schema(name):
    if name in SCHEMA["answers"]:
        return SCHEMA["answers"][name]
    return SCHEMA["$defs"][name]


def test_every_typed_dict_of_the_stub_has_the_documents_keys():
    for stub, doc in STUB_DOCS.items():
        keys = stub_keys(stub)
        have = properties(doc_schema(doc))
        assert keys == have, f"{stub} vs {doc}: only in the stub {keys - have}, only in the document {have - keys}"


def _matches(value, schema):
    """A small validator for the shapes the schema uses (type, properties, required,
    items, anyOf/oneOf/allOf, enum, const, $ref)."""
    schema = resolve(schema)
    if schema is True or schema == {}:
        return True
    if "anyOf" in schema and not any(_matches(value, s) for s in schema["anyOf"]):
        return False
    if "oneOf" in schema and not any(_matches(value, s) for s in schema["oneOf"]):
        return False
    if "allOf" in schema and not all(_matches(value, s) for s in schema["allOf"]):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "const" in schema and value != schema["const"]:
        return False
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        python = {
            "null": value is None,
            "boolean": isinstance(value, bool),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool),
            "string": isinstance(value, str),
            "array": isinstance(value, (list, tuple)),
            "object": isinstance(value, dict),
        }
        if not any(python[k] for k in kinds):
            return False
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                return False
        for key, sub in schema.get("properties", {}).items():
            if key in value and not _matches(value[key], sub):
                return False
    if isinstance(value, (list, tuple)) and "items" in schema:
        if not all(_matches(v, schema["items"]) for v in value):
            return False
    return True


def test_answers_match_their_schema():
    wythoff = nimlab.game("wythoff")
    cases = [
        (wythoff.analyse((3, 5)), "PositionDoc"),
        (wythoff.moves((3, 5)), "PositionDoc"),
        (nimlab.game("nplayer(nim,n=3)").analyse((1, 2, 3)), "PositionDoc"),
        (wythoff.check("x xor y", size=8), "CheckDoc"),
        (nimlab.game("subtraction(s={1,3,4})").periodicity(), "PeriodicityDoc"),
    ]
    for answer, doc in cases:
        answer = dict(answer)
        answer.pop("schema", None)
        assert _matches(answer, doc_schema(doc)), f"{doc}: {answer}"


def test_the_validator_rejects_what_the_schema_forbids():
    check = doc_schema("CheckDoc")
    good = dict(nimlab.game("nim").check("x xor y", size=4))
    good.pop("schema", None)
    assert _matches(good, check)
    assert not _matches({**good, "holds": "yes"}, check)
    assert not _matches({k: v for k, v in good.items() if k != "checked"}, check)
    assert not _matches({**good, "box": ["4"]}, check)
