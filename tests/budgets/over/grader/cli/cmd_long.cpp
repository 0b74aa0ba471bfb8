// A fixture of tests/budgets: 10 lines in cli/, over a budget of 9; a
// function of 7 lines, over a budget of 6; owns_main() asked once outside
// course/, over a budget of 0.
int cmd_long(const Lab& lab)
{
    int n = 0;
    if (lab.owns_main()) n = 1;
    n += 2;
    return n;
}
