// A fixture of tests/budgets: one of three modules, over a budget of 2.
#include "run/a.h"
