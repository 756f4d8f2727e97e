// SymbolicateMachO module. Real content lands with its issue.
