Office.onReady(() => undefined);
