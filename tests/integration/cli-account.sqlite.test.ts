// The CLI's acting account on SQLite, from a shell in local mode (loopback, no RETERM_AUTH): whether the database is a
// team database is read from the database itself.
delete process.env.RETERM_AUTH;
delete process.env.HOST;
import { defineCliAccountSuite, CLI_USER } from "../helpers/cli-account-suite.ts";

process.env.RETERM_USER = CLI_USER;
defineCliAccountSuite("sqlite");
