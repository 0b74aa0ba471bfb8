// A run request with one callback past its budget of 1 (cpu.budgets.catches_run_hooks).
#include <functional>

struct RunHooks {
    std::function<void()> on_start;
    // std::function<void()> not_counted: a comment
    std::function<void(int)> on_end;
};
