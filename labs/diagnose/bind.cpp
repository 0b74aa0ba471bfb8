// How hpclab calls this lab's functions (see grader/harness/binding.h).
#include "binding.h"
#include "diagnose.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("transpose", [](const hpclab::Call& c) {
        transpose(c.in<float>("in"), c.out<float>("out"), c.int_param("rows"), c.int_param("cols"));
        return 0;
    });
    lab.add("scale_rows", [](const hpclab::Call& c) {
        scale_rows(c.in<float>("in"), c.in<float>("f"), c.out<float>("out"), c.int_param("rows"),
                   c.int_param("cols"));
        return 0;
    });
}
