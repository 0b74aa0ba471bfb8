// How hpclab calls this lab's function (see grader/harness/binding.h).
#include "binding.h"
#include "vecadd0.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("add", [](const hpclab::Call& c) {
        add_on_device(c.in<int>("a"), c.in<int>("b"), c.out<int>("c"));
        return 0;
    });
}
