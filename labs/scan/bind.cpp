// How hpclab calls this lab's functions (see grader/harness/binding.h).
// Both write the prefix sums into the device buffer "b", n ints.
#include "binding.h"
#include "scan.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("blocks", [](const hpclab::Call& c) {
        scan_blocks(c.in<int>("a"), c.int_param("n"), c.out<int>("b"));
        return 0;
    });
    lab.add("scan", [](const hpclab::Call& c) {
        scan(c.in<int>("a"), c.int_param("n"), c.out<int>("b"));
        return 0;
    });
}
