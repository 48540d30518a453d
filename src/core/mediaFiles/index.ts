// Media files as people see them: their address on the files host, their bytes, their order.
export * from './mediaAddress';
export * from './downloadMedia';
export * from './mediaOrder';
