// How hpclab calls this lab's functions (see grader/harness/binding.h).
// Both leave their result in the device buffer of one int that hpclab
// compares with its own: "sum" or "max".
#include "binding.h"
#include "warpreduce.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("sum", [](const hpclab::Call& c) {
        reduce_sum(c.in<int>("a"), c.int_param("n"), c.out<int>("sum"));
        return 0;
    });
    lab.add("max", [](const hpclab::Call& c) {
        reduce_max(c.in<int>("a"), c.int_param("n"), c.out<int>("max"));
        return 0;
    });
}
