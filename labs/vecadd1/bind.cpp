// How hpclab calls this lab's function (see grader/harness/binding.h).
#include "binding.h"
#include "vecadd1.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("add", [](const hpclab::Call& c) {
        vecadd1(c.in<int>("a"), c.in<int>("b"), c.out<int>("c"), c.int_param("n"));
        return 0;
    });
}
