// A fixture of tests/budgets: 10 lines in cli/, over 9; a function of 7, over 6;
// the lab kind asked once outside course/ (kind_traits() here does not count),
// and the lab "demo" named once, both over 0.
int cmd_long(const Lab& lab)
{
    int n = 0;
    if (lab.kind_traits().tasks_at_sizes) n = 1;
    n += lab.id == "demo" ? 2 : 0;
    return n;
}
