// A fixture of tests/budgets: owns_main() asked in the seam does not count.
bool kind(const Lab& lab) { return lab.owns_main(); }
