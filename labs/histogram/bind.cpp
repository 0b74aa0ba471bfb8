// How hpclab calls this lab's functions (see grader/harness/binding.h).
// Each leaves the counts in the device buffer "hist", bins ints.
#include "binding.h"
#include "histogram.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("global", [](const hpclab::Call& c) {
        histogram_global(c.in<int>("a"), c.int_param("n"), c.out<int>("hist"), c.int_param("bins"));
        return 0;
    });
    lab.add("shared", [](const hpclab::Call& c) {
        histogram_shared(c.in<int>("a"), c.int_param("n"), c.out<int>("hist"), c.int_param("bins"));
        return 0;
    });
}
