// A fixture of tests/budgets: the lab kind asked, or a lab.json key that
// shares a lab's name read, in the seam does not count.
bool kind(const Lab& lab) { return lab.kind == LabKind::program || lab.has("demo"); }
