// The gallery grid's page (see src/extension/galleries/grid/galleryGrid.ts). Plain JavaScript, no framework:
// it draws what the extension sends, and sends back what the person does (open, move, refresh).
// Keyboard: arrow keys move between tiles, Home/End to the ends, Enter or Space opens, Alt+Arrow
// moves the focused media item one place earlier (Left/Up) or later (Right/Down). Its texts come
// from the extension, in the display language (gridStrings in src/extension/galleries/grid/gridPage.ts).
// @ts-check
(function () {
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const grid = /** @type {HTMLUListElement} */ (document.getElementById('grid'));
  const title = /** @type {HTMLElement} */ (document.getElementById('title'));
  const summary = /** @type {HTMLElement} */ (document.getElementById('summary'));
  const notice = /** @type {HTMLElement} */ (document.getElementById('notice'));
  const refresh = /** @type {HTMLButtonElement} */ (document.getElementById('refresh'));
  const DRAG_TYPE = 'application/x-spot-media-id';
  /** @type {{mediaCount: string, loading: string, failed: string, unknownError: string, noMedia: string, noTemplate: string, setTemplate: string, position: string, enterOpens: string}} */
  const strings = JSON.parse(document.body.dataset.strings || '{}');

  /**
   * A template's {0}, {1}… filled in (one pass: what is put in is not read again).
   * @param {string} template
   * @param {...(string | number)} args
   */
  function format(template, ...args) {
    return template.replace(/\{(\d+)\}/g, (match, index) => (Number(index) < args.length ? String(args[Number(index)]) : match));
  }

  /** @type {{ focusedId?: number }} */
  const saved = vscode.getState() || {};
  /** @type {Array<{id: number, name: string, file: string, mimeType: string, src?: string}>} */
  let tiles = [];
  let focusedId = saved.focusedId;
  /** @type {number | undefined} */
  let draggedId;

  refresh.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message && message.type === 'gallery') render(message.state);
  });

  /** @param {{title: string, status: string, message?: string, hasTemplate: boolean, tiles: typeof tiles}} state */
  function render(state) {
    title.textContent = state.title;
    document.title = state.title;
    tiles = state.tiles;
    showNotice(state);
    summary.textContent = state.status === 'loaded' ? format(strings.mediaCount, tiles.length) : state.status === 'loading' ? strings.loading : '';
    const hadFocus = grid.contains(document.activeElement);
    grid.replaceChildren(...tiles.map(tileElement));
    if (!tiles.some((tile) => tile.id === focusedId)) focusedId = tiles[0] && tiles[0].id;
    updateTabStops();
    if (hadFocus) focusTile(focusedId);
  }

  /** @param {{status: string, message?: string, hasTemplate: boolean}} state */
  function showNotice(state) {
    notice.replaceChildren();
    let text = '';
    if (state.status === 'failed') text = format(strings.failed, state.message || strings.unknownError);
    else if (state.status === 'loaded' && tiles.length === 0) text = strings.noMedia;
    else if (state.status === 'loaded' && !state.hasTemplate) text = strings.noTemplate;
    notice.hidden = text === '';
    if (!text) return;
    notice.append(text);
    if (state.status === 'loaded' && !state.hasTemplate && tiles.length > 0) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'button';
      button.textContent = strings.setTemplate;
      button.addEventListener('click', () => vscode.postMessage({ type: 'setTemplate' }));
      notice.append(' ', button);
    }
  }

  /** @param {(typeof tiles)[number]} tile @param {number} index */
  function tileElement(tile, index) {
    const item = document.createElement('li');
    item.className = 'tile';
    item.setAttribute('role', 'option');
    item.setAttribute('aria-selected', 'false');
    item.setAttribute('aria-posinset', String(index + 1));
    item.setAttribute('aria-setsize', String(tiles.length));
    item.setAttribute('aria-label', `${tile.name}, ${tile.mimeType}, ${format(strings.position, index + 1, tiles.length)}`);
    item.title = `${tile.file}\n${tile.mimeType}\n${strings.enterOpens}`;
    item.dataset.id = String(tile.id);
    item.draggable = true;

    const frame = document.createElement('div');
    frame.className = 'frame';
    if (tile.src) {
      const image = document.createElement('img');
      image.loading = 'lazy';
      image.decoding = 'async';
      image.alt = '';
      image.src = tile.src;
      image.addEventListener('error', () => frame.classList.add('broken'));
      frame.append(image);
    } else {
      const kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = (tile.mimeType.split('/')[1] || tile.mimeType).toUpperCase();
      frame.append(kind);
    }
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = tile.name;
    const type = document.createElement('span');
    type.className = 'type';
    type.textContent = tile.mimeType;
    // The space: read as text (by an accessibility checker comparing the visible text with the
    // tile's accessible name, say), the name and the type are two words, not one run-on word.
    item.append(frame, name, ' ', type);

    item.addEventListener('click', () => {
      focusTile(tile.id);
      vscode.postMessage({ type: 'open', mediaId: tile.id });
    });
    item.addEventListener('focus', () => {
      focusedId = tile.id;
      updateTabStops();
    });
    item.addEventListener('dragstart', (event) => {
      draggedId = tile.id;
      if (event.dataTransfer) {
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData(DRAG_TYPE, String(tile.id));
      }
      item.classList.add('dragging');
    });
    item.addEventListener('dragend', () => {
      draggedId = undefined;
      item.classList.remove('dragging');
      for (const other of grid.querySelectorAll('.drop-target')) other.classList.remove('drop-target');
    });
    item.addEventListener('dragover', (event) => {
      if (draggedId === undefined || draggedId === tile.id) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
      item.classList.add('drop-target');
    });
    item.addEventListener('dragleave', () => item.classList.remove('drop-target'));
    item.addEventListener('drop', (event) => {
      event.preventDefault();
      item.classList.remove('drop-target');
      const moving = draggedId;
      if (moving === undefined || moving === tile.id) return;
      // The dragged tile takes the place of the one it is dropped on.
      const down = indexOf(moving) < indexOf(tile.id);
      vscode.postMessage({ type: 'move', mediaIds: [moving], place: down ? { after: tile.id } : { before: tile.id } });
    });
    return item;
  }

  grid.addEventListener('keydown', (event) => {
    const index = indexOf(focusedId);
    if (index < 0) return;
    const columns = columnCount();
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns };
    if (event.key in moves && event.altKey) {
      event.preventDefault();
      const step = /** @type {Record<string, number>} */ (moves)[event.key] < 0 ? -1 : 1;
      vscode.postMessage({ type: 'move', mediaIds: [tiles[index].id], place: { step } });
      return;
    }
    let next = index;
    if (event.key in moves) next = index + /** @type {Record<string, number>} */ (moves)[event.key];
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tiles.length - 1;
    else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      vscode.postMessage({ type: 'open', mediaId: tiles[index].id });
      return;
    } else return;
    event.preventDefault();
    next = Math.max(0, Math.min(tiles.length - 1, next));
    focusTile(tiles[next].id);
  });

  /** @param {number | undefined} id */
  function indexOf(id) {
    return tiles.findIndex((tile) => tile.id === id);
  }

  /** How many tiles the first row holds (the grid's columns follow the window's width). */
  function columnCount() {
    const items = grid.children;
    if (items.length === 0) return 1;
    const top = /** @type {HTMLElement} */ (items[0]).offsetTop;
    let count = 0;
    while (count < items.length && /** @type {HTMLElement} */ (items[count]).offsetTop === top) count++;
    return Math.max(1, count);
  }

  /** @param {number | undefined} id */
  function focusTile(id) {
    focusedId = id;
    updateTabStops();
    const element = grid.querySelector(`[data-id="${id}"]`);
    if (element instanceof HTMLElement) {
      element.focus();
      element.scrollIntoView({ block: 'nearest' });
    }
  }

  /** One tab stop in the grid (roving tabindex), on the focused tile, which is also the selected one. */
  function updateTabStops() {
    for (const element of grid.children) {
      const current = /** @type {HTMLElement} */ (element).dataset.id === String(focusedId);
      element.setAttribute('tabindex', current ? '0' : '-1');
      element.setAttribute('aria-selected', current ? 'true' : 'false');
    }
    vscode.setState({ focusedId });
  }

  vscode.postMessage({ type: 'ready' });
})();
