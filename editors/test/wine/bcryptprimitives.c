/*
 * bcryptprimitives.dll for Wine 8.0, which lacks it: Go 1.24 and later
 * draw their random bytes from its ProcessPrng, which Windows 10 and
 * later provide. This forwards to RtlGenRandom (advapi32's
 * SystemFunction036), which Wine has. Built by wine-exec.sh with
 * mingw-w64; only the Wine test harness uses it.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	/* RtlGenRandom takes a ULONG length; ProcessPrng a SIZE_T. */
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
