#ifndef MODELC_CSQLITE_SHIM_H
#define MODELC_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
