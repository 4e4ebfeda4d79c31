//! Game-independent search: exact (A*, IDA*) and anytime (branch and bound,
//! limited discrepancy) strategies, transposition tables, budgets.
