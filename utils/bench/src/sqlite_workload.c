// Whole-program workload (i): drives the SQLite amalgamation through a mix
// of what applications do, in one process, on an in-memory database:
// inserts, indexed and unindexed selects, a join with grouping, updates and
// deletes. Argument: rows (default 80000). Prints a checksum so the work
// cannot be optimised away and every build can be checked to agree.
#include "sqlite3.h"
#include <stdio.h>
#include <stdlib.h>

static sqlite3 *Db;

static void check(int Rc, const char *What) {
  if (Rc != SQLITE_OK && Rc != SQLITE_DONE && Rc != SQLITE_ROW) {
    fprintf(stderr, "sqlite_workload: %s: %s\n", What, sqlite3_errmsg(Db));
    exit(1);
  }
}

static void exec(const char *Sql) {
  check(sqlite3_exec(Db, Sql, NULL, NULL, NULL), Sql);
}

static sqlite3_stmt *prepare(const char *Sql) {
  sqlite3_stmt *S;
  check(sqlite3_prepare_v2(Db, Sql, -1, &S, NULL), Sql);
  return S;
}

// Runs a prepared statement with one integer parameter; sums column 0.
static double sumOf(sqlite3_stmt *S, long long Param) {
  double Sum = 0;
  sqlite3_bind_int64(S, 1, Param);
  int Rc;
  while ((Rc = sqlite3_step(S)) == SQLITE_ROW)
    Sum += sqlite3_column_double(S, 0);
  check(Rc, "step");
  sqlite3_reset(S);
  return Sum;
}

int main(int argc, char **argv) {
  long Rows = argc > 1 ? atol(argv[1]) : 80000;
  double Check = 0;
  check(sqlite3_open(":memory:", &Db), "open");
  exec("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, age INT, city "
       "INT);"
       "CREATE TABLE orders(id INTEGER PRIMARY KEY, user_id INT, amount REAL,"
       " note TEXT);"
       "CREATE INDEX users_city ON users(city);");

  // Inserts, in one transaction as applications batch them.
  exec("BEGIN");
  sqlite3_stmt *InsU = prepare("INSERT INTO users VALUES(?, ?, ?, ?)");
  sqlite3_stmt *InsO =
      prepare("INSERT INTO orders(user_id, amount, note) VALUES(?, ?, ?)");
  unsigned Seed = 12345;
  char Text[64];
  for (long I = 1; I <= Rows; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    snprintf(Text, sizeof Text, "user-%ld-%u", I, Seed % 1000);
    sqlite3_bind_int64(InsU, 1, I);
    sqlite3_bind_text(InsU, 2, Text, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(InsU, 3, 18 + (int)(Seed % 60));
    sqlite3_bind_int(InsU, 4, (int)(Seed >> 8) % 500);
    check(sqlite3_step(InsU), "insert user");
    sqlite3_reset(InsU);
    for (int K = 0; K < 2; ++K) {
      Seed = Seed * 1103515245u + 12345u;
      sqlite3_bind_int64(InsO, 1, 1 + (long)(Seed % (unsigned)Rows));
      sqlite3_bind_double(InsO, 2, (Seed >> 4) % 10000 / 100.0);
      sqlite3_bind_text(InsO, 3, K ? "express" : "standard", -1, SQLITE_STATIC);
      check(sqlite3_step(InsO), "insert order");
      sqlite3_reset(InsO);
    }
  }
  exec("COMMIT");
  sqlite3_finalize(InsU);
  sqlite3_finalize(InsO);
  exec("CREATE INDEX orders_user ON orders(user_id)");

  // Indexed point and range lookups.
  sqlite3_stmt *ByUser =
      prepare("SELECT sum(amount) FROM orders WHERE user_id = ?");
  sqlite3_stmt *ByCity = prepare("SELECT count(*) FROM users WHERE city = ?");
  for (long I = 0; I < Rows / 4; ++I)
    Check += sumOf(ByUser, 1 + I * 7 % Rows) + sumOf(ByCity, I % 500);
  sqlite3_finalize(ByUser);
  sqlite3_finalize(ByCity);

  // Unindexed scans: a comparison and a LIKE over every row.
  sqlite3_stmt *ByAge = prepare("SELECT count(*) FROM users WHERE age = ?");
  sqlite3_stmt *Like =
      prepare("SELECT count(*) FROM users WHERE name LIKE '%-' || ? || '-%'");
  for (int I = 0; I < 8; ++I)
    Check += sumOf(ByAge, 20 + I) + sumOf(Like, I * 37);
  sqlite3_finalize(ByAge);
  sqlite3_finalize(Like);

  // A join with grouping and ordering.
  sqlite3_stmt *Join =
      prepare("SELECT sum(o.amount) FROM users u JOIN orders o"
              " ON o.user_id = u.id WHERE u.age > ? GROUP BY u.city"
              " ORDER BY 1 DESC LIMIT 10");
  for (int I = 0; I < 3; ++I)
    Check += sumOf(Join, 30 + I * 10);
  sqlite3_finalize(Join);

  // Updates through the index and by scan, then deletes.
  exec("BEGIN");
  sqlite3_stmt *Upd =
      prepare("UPDATE orders SET amount = amount * 1.01 WHERE user_id = ?");
  for (long I = 0; I < Rows / 4; ++I) {
    sqlite3_bind_int64(Upd, 1, 1 + I * 13 % Rows);
    check(sqlite3_step(Upd), "update");
    sqlite3_reset(Upd);
  }
  sqlite3_finalize(Upd);
  exec("UPDATE users SET age = age + 1 WHERE city % 3 = 0;"
       "DELETE FROM orders WHERE amount < 5;"
       "COMMIT");
  sqlite3_stmt *Total = prepare("SELECT sum(amount) + ? FROM orders");
  Check += sumOf(Total, 0);
  sqlite3_finalize(Total);

  sqlite3_close(Db);
  printf("rows=%ld check=%.2f\n", Rows, Check);
  return 0;
}
