// A fixture of tests/budgets: one of three modules, over a budget of 2; a
// and b include each other (b.h includes a.h), over a budget of 0.
#include "run/b.h"
