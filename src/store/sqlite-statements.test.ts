import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { reusingStatements } from "./sqlite-statements.js";

describe("reusingStatements (the handle Kysely's SQLite dialect prepares through)", () => {
  const handles: Database.Database[] = [];
  const open = () => {
    const handle = new Database(":memory:");
    handles.push(handle);
    handle.exec("create table t (id integer primary key, v text)");
    handle.exec("insert into t (v) values ('a'), ('b'), ('c')");
    return handle;
  };
  afterEach(() => {
    for (const h of handles.splice(0)) if (h.open) h.close();
  });

  it("prepares a SQL text once and keeps the most recently used texts within its bound", () => {
    const db = reusingStatements(open(), 2);
    const first = db.prepare("select v from t where id = ?");
    expect(db.prepare("select v from t where id = ?")).toBe(first);
    expect(first.all([2])).toEqual([{ v: "b" }]);
    db.prepare("select count(*) as n from t");
    db.prepare("select v from t where id = ?"); // used again: the count is now the oldest
    db.prepare("select max(id) as m from t");
    expect(db.prepare("select v from t where id = ?")).toBe(first);
    expect(db.prepare("select count(*) as n from t")).not.toBe(first);
  });

  it("prepares a fresh statement while the kept one is still iterating, and follows a schema change", () => {
    const handle = open();
    const db = reusingStatements(handle);
    const text = "select id from t order by id";
    const iterating = db.prepare(text).iterate([]);
    iterating.next();
    const other = db.prepare(text);
    expect(other.all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    iterating.return?.();
    const read = db.prepare("select * from t where id = ?");
    expect(read.all([1])).toEqual([{ id: 1, v: "a" }]);
    handle.exec("alter table t add column w integer default 7");
    expect(db.prepare("select * from t where id = ?").all([1])).toEqual([{ id: 1, v: "a", w: 7 }]);
  });
});
