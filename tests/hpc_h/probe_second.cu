// A second file of the probe that includes hpc.h: the program must link
// (the course's original hpc.h defined a function in the header, which made
// this a "multiple definition" error).
#include "hpc.h"

double second_file_gettime() { return hpc_gettime(); }
